import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { isDraining } from '~/server/health.server';
import { drainable } from './drain';

/*
 * The drain of server/drain.ts on a bare HTTP server: new connections refused at once, a request
 * under way answered with `Connection: close` while its body is still arriving, and cut once the
 * grace period is over.
 */

let server: http.Server | undefined;
afterEach(() => {
  server?.closeAllConnections();
});

/** A server whose POSTs answer once their whole body has arrived. */
async function start() {
  let arrived = () => {};
  const firstRequest = new Promise<void>((resolve) => {
    arrived = resolve;
  });
  const s = http.createServer((req, res) => {
    arrived();
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
    });
    req.on('end', () => res.end(String(size)));
  });
  const drainer = drainable(s);
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  server = s;
  return { drainer, port: (s.address() as AddressInfo).port, firstRequest };
}

/** A POST of `size` bytes, its first half sent now and the rest when `rest` resolves. */
function halfSent(port: number, size: number, rest: Promise<unknown>) {
  return new Promise<{ status: number; connection: unknown; body: string }>((resolve, reject) => {
    const req = http.request(
      { port, host: '127.0.0.1', method: 'POST', headers: { 'content-length': String(size) }, agent: false },
      (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => {
          body += chunk.toString();
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, body }));
      },
    );
    req.on('error', reject);
    req.write(Buffer.alloc(size / 2));
    void rest.then(() => req.end(Buffer.alloc(size / 2)));
  });
}

function refused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const req = http.get({ port, host: '127.0.0.1', agent: false }, (res) => {
      res.resume();
      resolve(false);
    });
    req.on('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
  });
}

describe('draining', () => {
  it('refuses new connections and answers the request under way, with Connection: close', async () => {
    const { drainer, port, firstRequest } = await start();
    let drained = false;
    let sendRest = () => {};
    const answer = halfSent(
      port,
      1024,
      new Promise<void>((resolve) => {
        sendRest = resolve;
      }),
    );
    // The request is under way (its headers arrived) before the drain starts.
    await firstRequest;
    const done = drainer.drain(10_000).then(() => {
      drained = true;
    });
    expect(isDraining()).toBe(true);
    // The listener closes within the turn of the event loop.
    while (server?.listening) await new Promise((resolve) => setImmediate(resolve));
    expect(await refused(port)).toBe(true);
    expect(drained).toBe(false);
    sendRest();
    expect(await answer).toEqual({ status: 200, connection: 'close', body: '1024' });
    await done;
  });

  it('cuts what is still under way once the grace period is over', async () => {
    const { drainer, port, firstRequest } = await start();
    // Its second half never comes.
    const answer = halfSent(port, 1024, new Promise(() => {})).then(
      () => 'answered',
      (error: NodeJS.ErrnoException) => error.code,
    );
    await firstRequest;
    const started = Date.now();
    await drainer.drain(300);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect(await answer).toBe('ECONNRESET');
  });

  // nginx opens a connection per request: one may be accepted just before the drain and its request
  // read just after. Reset, it would be a 502 that nginx does not retry for a POST.
  it('answers a request that arrives on a connection accepted before the drain started', async () => {
    const { drainer, port } = await start();
    const accepted = new Promise<void>((resolve) => server?.once('connection', () => resolve()));
    const socket = net.connect(port, '127.0.0.1');
    let received = '';
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString();
    });
    const ended = new Promise<string>((resolve) => {
      socket.on('close', () => resolve(received));
      socket.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
    });
    await accepted;
    const done = drainer.drain(10_000);
    socket.write('POST /commande HTTP/1.1\r\nHost: localhost\r\nContent-Length: 4\r\n\r\nabcd');
    const answer = await ended;
    expect(answer).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(answer).toMatch(/\r\nConnection: close\r\n/i);
    expect(answer).toMatch(/\r\n\r\n4$/);
    await done;
  });
});
