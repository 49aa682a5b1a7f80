// The MCP server calls the API through a keep-alive agent on a loopback port. A kept-alive socket
// the server closes just as the agent hands it out fails before the server read anything; that
// request is sent once more on a fresh socket. A failure on a fresh socket is not retried.
import { createServer, type Server, type Socket } from 'node:net';
import { Agent } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { send, type Loopback } from '../../src/mcp/server';

const OK = 'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 11\r\nConnection: keep-alive\r\n\r\n{"ok":true}';

let server: Server | undefined;
const sockets = new Set<Socket>();
const agents: Agent[] = [];
afterEach(async () => {
  for (const a of agents.splice(0)) a.destroy();
  for (const s of sockets) s.destroy();
  sockets.clear();
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
});

/** A raw HTTP server: `onRequest(n, socket)` for the n-th request on a socket (1-based), per connection. */
async function rawServer(onRequest: (n: number, socket: Socket, connection: number) => void): Promise<{ lb: Loopback; connections: () => number }> {
  let connections = 0;
  server = createServer((socket) => {
    const connection = ++connections;
    sockets.add(socket);
    let n = 0;
    let buffered = '';
    socket.on('data', (chunk) => {
      buffered += chunk.toString('latin1');
      while (buffered.includes('\r\n\r\n')) {
        buffered = buffered.slice(buffered.indexOf('\r\n\r\n') + 4);
        onRequest(++n, socket, connection);
      }
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as { port: number }).port;
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  agents.push(agent);
  return { lb: { port, agent }, connections: () => connections };
}

describe('MCP loopback calls', () => {
  it('a request on a kept-alive socket the server has just closed is sent again on a fresh socket', async () => {
    const { lb, connections } = await rawServer((n, socket, connection) => {
      if (connection === 1 && n === 2) socket.destroy(); // the stale socket: closed under the second request
      else socket.write(OK);
    });
    expect(await send(lb, 'GET', '/v1/deals', {})).toEqual({ status: 200, body: '{"ok":true}' });
    expect(await send(lb, 'GET', '/v1/deals', {})).toEqual({ status: 200, body: '{"ok":true}' });
    expect(connections()).toBe(2);
  });

  it('a failure on a fresh socket is not retried', async () => {
    let requests = 0;
    const { lb, connections } = await rawServer((_n, socket) => {
      requests++;
      socket.destroy();
    });
    await expect(send(lb, 'POST', '/v1/businesses', { 'content-type': 'application/json' }, '{}')).rejects.toMatchObject({ code: 'ECONNRESET' });
    expect(requests).toBe(1);
    expect(connections()).toBe(1);
  });
});
