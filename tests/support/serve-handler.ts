import http from 'node:http';
import type { AddressInfo } from 'node:net';

/*
 * A real HTTP server around a fetch-style handler (Request -> Response), for integration tests
 * that need a peer to call over the network: e.g. the shop's webhook handler receiving the
 * sandbox gateway's notifications, without starting the whole app.
 */

export interface ServedHandler {
  url: string;
  close(): Promise<void>;
}

export async function serveHandler(handler: (request: Request) => Promise<Response>): Promise<ServedHandler> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      try {
        const headers = new Headers();
        for (const [name, value] of Object.entries(req.headers)) {
          if (typeof value === 'string') headers.set(name, value);
          else if (Array.isArray(value)) for (const v of value) headers.append(name, v);
        }
        const method = req.method ?? 'GET';
        const request = new Request(`http://${req.headers.host}${req.url}`, {
          method,
          headers,
          ...(method === 'GET' || method === 'HEAD' ? {} : { body: Buffer.concat(chunks) }),
        });
        const response = await handler(request);
        res.writeHead(response.status, Object.fromEntries(response.headers));
        res.end(Buffer.from(await response.arrayBuffer()));
      } catch (error) {
        res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(String(error));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
