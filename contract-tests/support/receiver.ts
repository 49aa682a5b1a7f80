import type http from 'node:http';

/** One request a loopback test receiver got (webhook deliveries, outbound calls). */
export interface Received {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** How a test receiver answers; tests swap it per case. */
export type Respond = (req: http.IncomingMessage, res: http.ServerResponse) => void;
