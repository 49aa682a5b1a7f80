import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startHarness, type Harness } from './harness';

/**
 * A harness whose app listens on a loopback port, with that port as its public address: what a
 * real client (a browser, the MCP SDK, a packed client in another process) needs, since links and
 * OAuth metadata name the public address.
 */
export async function startServedHarness(opts: Omit<Parameters<typeof startHarness>[0] & object, 'publicBaseUrl'> = {}): Promise<{ h: Harness; base: string; close(): Promise<void> }> {
  const server = createServer();
  // Idle keep-alive sockets outlive any pause in a test: at Node's default of 5 s, a step that takes
  // longer on a loaded machine (a sweep, a build) lets the server close the socket just as fetch
  // reuses it, and the request fails with ECONNRESET.
  server.keepAliveTimeout = 120_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const h = await startHarness({ ...opts, publicBaseUrl: base });
  server.on('request', h.app);
  return {
    h,
    base,
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await h.close();
    },
  };
}
