import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '~/server/db/embedded.server';
import { selfSignedCertificate, swapLine, waitForPort } from './proxy-harness';
import { type ProxyRequestOptions, type ProxyResponse, tlsClient } from './tls-client';

/*
 * The repository's nginx configuration (deploy/nginx/soovenirs.conf), run as it is by Debian's nginx
 * in front of test instances: only the lines marked « deployment value » are swapped (upstream
 * addresses, listening ports, a throwaway self-signed certificate, the server name). Whatever the
 * tests prove through it, an operator gets by copying the file.
 */

const CONFIG = 'deploy/nginx/soovenirs.conf';
const SITE = path.resolve(import.meta.dirname, '../..', CONFIG);

export interface NginxProxy {
  /** https://localhost:<port>: the shop through nginx, TLS with `ca`. */
  url: string;
  /** The plain HTTP server (redirects to HTTPS). */
  httpUrl: string;
  /** The self-signed certificate nginx presents (for `request`, or a client's `ca`). */
  ca: string;
  /** One request through nginx over TLS (node:https, the certificate trusted). */
  request(pathname: string, options?: ProxyRequestOptions): Promise<ProxyResponse>;
  /** A request whose answer is read as it arrives (an event stream). */
  open(pathname: string, options?: ProxyRequestOptions): Promise<IncomingMessage>;
  /** nginx's error log so far (upstream failures, 413s, timeouts). */
  errorLog(): Promise<string>;
  /**
   * Marks `address` `down` in the upstream (null: every instance in again) and reloads nginx, as an
   * operator does before stopping an instance; resolves once the new configuration serves.
   */
  takeOut(address: string | null): Promise<void>;
  stop(): Promise<void>;
}

export type { ProxyRequestOptions, ProxyResponse } from './tls-client';

/** nginx in front of `upstreams` (« 127.0.0.1:port » each), with the repository's configuration. */
export async function startNginx(upstreams: string[]): Promise<NginxProxy> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'soovenirs-nginx-'));
  const [httpPort, httpsPort] = [await freePort(), await freePort()];
  const certificate = selfSignedCertificate(dir);

  const original = await fs.readFile(SITE, 'utf8');
  // The addresses are swapped; the parameters of the file's first server line (max_fails…) are kept.
  const parameters = /upstream soovenirs_app \{\n\s*server \S+?( [^;\n]*)?;/.exec(original)?.[1] ?? '';
  const writeSite = (down: string | null) => {
    let site = swapLine(
      CONFIG,
      original,
      /(upstream soovenirs_app \{\n)(?:\s*server [^\n]*# deployment value\n)+/,
      `$1${upstreams.map((address) => `    server ${address}${parameters}${address === down ? ' down' : ''};\n`).join('')}`,
    );
    site = swapLine(CONFIG, site, /listen 80;/, `listen 127.0.0.1:${httpPort};`);
    site = swapLine(CONFIG, site, /listen 443 ssl http2;/, `listen 127.0.0.1:${httpsPort} ssl http2;`);
    site = site.replace(/server_name [^;]+;/g, 'server_name localhost;');
    site = swapLine(CONFIG, site, /ssl_certificate \S+;/, `ssl_certificate ${certificate.cert};`);
    site = swapLine(CONFIG, site, /ssl_certificate_key \S+;/, `ssl_certificate_key ${certificate.key};`);
    return fs.writeFile(path.join(dir, 'site.conf'), site);
  };
  await writeSite(null);

  // As root, nginx's workers would run as « nobody », who may not write its temporary folders here.
  const user = process.getuid?.() === 0 ? 'user root;' : '';
  const temp = (name: string) => `${name}_temp_path ${path.join(dir, name)};`;
  await fs.writeFile(
    path.join(dir, 'nginx.conf'),
    `${user}
worker_processes 1;
daemon off;
pid ${path.join(dir, 'nginx.pid')};
error_log ${path.join(dir, 'error.log')} warn;
events { worker_connections 1024; }
http {
  access_log ${path.join(dir, 'access.log')};
  ${temp('client_body')}
  ${temp('proxy')}
  ${temp('fastcgi')}
  ${temp('uwsgi')}
  ${temp('scgi')}
  include ${path.join(dir, 'site.conf')};
}
`,
  );
  const errorLog = () => fs.readFile(path.join(dir, 'error.log'), 'utf8').catch(() => '');
  const child = spawn('nginx', ['-p', dir, '-c', path.join(dir, 'nginx.conf')], { stdio: 'ignore' });
  await waitForPort('nginx', httpsPort, child, errorLog);
  const ca = await fs.readFile(certificate.cert, 'utf8');
  const url = `https://localhost:${httpsPort}`;
  const client = tlsClient(url, ca);
  // nginx's master (this child: `daemon off`) and its workers: SIGHUP is `nginx -s reload`.
  const workers = async () =>
    (await fs.readFile(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8')).split(' ').filter(Boolean);

  return {
    url,
    httpUrl: `http://127.0.0.1:${httpPort}`,
    ca,
    errorLog,
    async takeOut(address) {
      const before = new Set(await workers());
      await writeSite(address);
      child.kill('SIGHUP');
      const deadline = Date.now() + 15_000;
      // New workers read the new configuration; the old ones finish the requests they hold and exit.
      const reloaded = (now: string[]) => now.length > 0 && now.every((pid) => !before.has(pid));
      while (!reloaded(await workers())) {
        if (Date.now() > deadline) throw new Error(`nginx did not reload:\n${await errorLog()}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    request: client.request,
    open: client.open,
    stop: async () => {
      client.close();
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        // QUIT: nginx's graceful stop (its workers finish what they serve).
        child.kill('SIGQUIT');
        await exited;
      }
      await fs.rm(dir, { recursive: true, force: true });
    },
  };
}
