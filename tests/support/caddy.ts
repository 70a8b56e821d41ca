import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '~/server/db/embedded.server';
import { selfSignedCertificate, swapLine, waitForPort } from './proxy-harness';
import { type ProxyRequestOptions, type ProxyResponse, tlsClient } from './tls-client';

/*
 * The repository's Caddy configuration (deploy/caddy/Caddyfile), run as it is by Debian's caddy in
 * front of test instances: only the lines marked « deployment value » are swapped (the upstream
 * addresses, the site's name for localhost on a free port with a throwaway certificate, the
 * e-mail), and the global options get the test's ports, no admin endpoint and a storage folder of
 * its own. Whatever the tests prove through it, an operator gets by copying the file.
 */

const CONFIG = 'deploy/caddy/Caddyfile';
const CADDYFILE = path.resolve(import.meta.dirname, '../..', CONFIG);

export interface CaddyProxy {
  /** https://localhost:<port>: the shop through Caddy, TLS with `ca`. */
  url: string;
  ca: string;
  request(pathname: string, options?: ProxyRequestOptions): Promise<ProxyResponse>;
  open(pathname: string, options?: ProxyRequestOptions): Promise<IncomingMessage>;
  /** What Caddy logged so far (JSON lines). */
  log(): string;
  stop(): Promise<void>;
}

/** Caddy in front of `upstreams` (« 127.0.0.1:port » each), with the repository's Caddyfile. */
export async function startCaddy(upstreams: string[]): Promise<CaddyProxy> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'soovenirs-caddy-'));
  const [httpPort, httpsPort] = [await freePort(), await freePort()];
  const certificate = selfSignedCertificate(dir);

  let file = await fs.readFile(CADDYFILE, 'utf8');
  file = swapLine(CONFIG, file, /^\{\n/m, `{\n\tadmin off\n\thttp_port ${httpPort}\n\thttps_port ${httpsPort}\n`);
  file = swapLine(CONFIG, file, /\temail \S+ # deployment value/, '\temail exploitation@example.fr');
  file = swapLine(CONFIG, file, /\tto .* # deployment value/, `\tto ${upstreams.join(' ')}`);
  file = swapLine(
    CONFIG,
    file,
    /^\S+ \{ # deployment value\n/m,
    `localhost:${httpsPort} {\n\ttls ${certificate.cert} ${certificate.key}\n`,
  );
  await fs.writeFile(path.join(dir, 'Caddyfile'), file);

  let output = '';
  const child = spawn('caddy', ['run', '--adapter', 'caddyfile', '--config', path.join(dir, 'Caddyfile')], {
    // Caddy's data and configuration folders (certificates, autosave) in the test's own.
    env: {
      ...process.env,
      HOME: dir,
      XDG_DATA_HOME: path.join(dir, 'data'),
      XDG_CONFIG_HOME: path.join(dir, 'config'),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  await waitForPort('caddy', httpsPort, child, () => output);
  const ca = await fs.readFile(certificate.cert, 'utf8');
  const url = `https://localhost:${httpsPort}`;
  const client = tlsClient(url, ca);
  return {
    url,
    ca,
    request: client.request,
    open: client.open,
    log: () => output,
    stop: async () => {
      client.close();
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      await fs.rm(dir, { recursive: true, force: true });
    },
  };
}
