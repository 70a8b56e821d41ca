import type { IncomingMessage } from 'node:http';
import https from 'node:https';
import type { Readable } from 'node:stream';

/* A client of a front proxy under test (nginx.ts, caddy.ts): HTTPS with the proxy's throwaway certificate trusted. */

export interface ProxyRequestOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: Buffer | string | Readable;
  /** The local address to connect from (127.0.0.2…): a client the shop can tell from the proxy. */
  localAddress?: string;
}

export interface ProxyResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

export function tlsClient(url: string, ca: string) {
  const agent = new https.Agent({ ca, keepAlive: true });
  const open = (pathname: string, options: ProxyRequestOptions & { fresh?: boolean } = {}): Promise<IncomingMessage> =>
    new Promise<IncomingMessage>((resolve, reject) => {
      const req = https.request(
        new URL(pathname, url),
        {
          method: options.method ?? 'GET',
          headers: options.headers,
          // Another local address needs a connection of its own (the agent's are from 127.0.0.1).
          ...(options.localAddress
            ? { localAddress: options.localAddress, ca, agent: false }
            : options.fresh
              ? { ca, agent: false }
              : { agent }),
        },
        resolve,
      );
      const body = options.body;
      req.on('error', (error: NodeJS.ErrnoException) => {
        // A kept-alive connection the proxy closed as this request left (an nginx reload ends its
        // old workers' idle connections): the request never reached it, and a browser sends it
        // again on a new connection, whatever its method. So does this client, when it can.
        const replayable = body === undefined || typeof body === 'string' || Buffer.isBuffer(body);
        if (req.reusedSocket && error.code === 'ECONNRESET' && replayable) {
          resolve(open(pathname, { ...options, fresh: true }));
        } else {
          reject(error);
        }
      });
      if (body === undefined) req.end();
      else if (typeof body === 'string' || Buffer.isBuffer(body)) req.end(body);
      else body.pipe(req);
    });
  const request = async (pathname: string, options: ProxyRequestOptions = {}): Promise<ProxyResponse> => {
    const res = await open(pathname, options);
    const chunks: Buffer[] = [];
    for await (const chunk of res) chunks.push(chunk as Buffer);
    return { status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) };
  };
  return { open, request, close: () => agent.destroy() };
}
