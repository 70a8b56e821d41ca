import { type ChildProcess, execFileSync } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';

/*
 * What the front-proxy harnesses (nginx.ts, caddy.ts) share: a throwaway certificate, the swap of a
 * configuration's « deployment value » lines, and the wait for the proxy to listen.
 */

/** A self-signed certificate for localhost in `dir` (cert.pem, key.pem), valid one day. */
export function selfSignedCertificate(dir: string): { cert: string; key: string } {
  const cert = path.join(dir, 'cert.pem');
  const key = path.join(dir, 'key.pem');
  execFileSync(
    'openssl',
    ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=localhost'].concat([
      '-addext',
      'subjectAltName=DNS:localhost',
      '-keyout',
      key,
      '-out',
      cert,
    ]),
    { stdio: 'ignore' },
  );
  return { cert, key };
}

/** Replaces one marked line of `file`'s text; throws when the file no longer has it. */
export function swapLine(file: string, text: string, pattern: RegExp, replacement: string): string {
  if (!pattern.test(text)) throw new Error(`${file} has no line matching ${pattern}`);
  return text.replace(pattern, replacement);
}

/** Resolves once `port` accepts a connection; throws with the proxy's log if it exits or takes 20 s. */
export async function waitForPort(
  name: string,
  port: number,
  child: ChildProcess,
  log: () => string | Promise<string>,
): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${name} exited (${child.exitCode}):\n${await log()}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.end();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${name} did not listen on ${port} in time:\n${await log()}`);
}
