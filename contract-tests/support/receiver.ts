import http from 'node:http';

/** One request a loopback test receiver got (webhook deliveries, outbound calls). */
export interface Received {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** How a test receiver answers; tests swap it per case. */
export type Respond = (req: http.IncomingMessage, res: http.ServerResponse) => void;

export interface LoopbackReceiver {
  server: http.Server;
  /** `http://127.0.0.1:<port>` */
  base: string;
  close(): Promise<void>;
}

/** A real HTTP receiver on 127.0.0.1 (port 0): each request, body read in full, goes to `onRequest`. */
export async function startReceiver(onRequest: (got: Received, req: http.IncomingMessage, res: http.ServerResponse) => void): Promise<LoopbackReceiver> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => onRequest({ method: req.method!, path: req.url!, headers: req.headers, body: Buffer.concat(chunks) }, req, res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    server,
    base: `http://127.0.0.1:${port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
