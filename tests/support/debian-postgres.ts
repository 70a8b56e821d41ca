import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { chownTree, freePort, unprivilegedIds } from '~/server/db/embedded.server';

/*
 * A throwaway cluster of Debian's own PostgreSQL (the `postgresql-15` package, which .ci/run
 * installs): another major version than the embedded one, as an operator's external server is.
 * initdb and pg_ctl from /usr/lib/postgresql/<major>/bin in a temporary folder, on a free port of
 * 127.0.0.1, with password authentication; run as root, as the unprivileged `postgres` user (the
 * embedded cluster's way: PostgreSQL refuses root).
 */

const run = promisify(execFile);

export interface DebianPostgres {
  /** The cluster's superuser on its `postgres` database. */
  adminUrl: string;
  /** e.g. 15 */
  major: number;
  /** A URL of this cluster for `role` (password `password`) on `database`. */
  urlFor(role: string, password: string, database: string): string;
  stop(): Promise<void>;
}

export function debianPostgresBin(major = 15): string {
  const bin = `/usr/lib/postgresql/${major}/bin`;
  if (!existsSync(path.join(bin, 'pg_ctl'))) {
    throw new Error(`PostgreSQL ${major} from Debian is missing (${bin}): apt-get install postgresql-${major}`);
  }
  return bin;
}

export async function startDebianPostgres(major = 15): Promise<DebianPostgres> {
  const bin = debianPostgresBin(major);
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), `soovenirs-pg${major}-`));
  const data = path.join(dir, 'data');
  const password = randomBytes(18).toString('base64url');
  const ids = unprivilegedIds();
  const as = ids ? { uid: ids.uid, gid: ids.gid } : {};
  await fs.writeFile(path.join(dir, 'password'), `${password}\n`, { mode: 0o600 });
  if (ids) await chownTree(dir, ids);
  await run(
    path.join(bin, 'initdb'),
    [
      `--pgdata=${data}`,
      '--username=postgres',
      `--pwfile=${path.join(dir, 'password')}`,
      '--auth=scram-sha-256',
      '--encoding=UTF8',
      '--locale=C.UTF-8',
    ],
    as,
  );
  const port = await freePort();
  // -w: pg_ctl returns once the server accepts connections.
  await run(
    path.join(bin, 'pg_ctl'),
    [
      '-D',
      data,
      '-l',
      path.join(dir, 'log'),
      '-w',
      '-o',
      `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off`,
      'start',
    ],
    as,
  );
  const urlFor = (role: string, secret: string, database: string) =>
    `postgresql://${role}:${encodeURIComponent(secret)}@127.0.0.1:${port}/${database}`;
  return {
    adminUrl: urlFor('postgres', password, 'postgres'),
    major,
    urlFor,
    async stop() {
      await run(path.join(bin, 'pg_ctl'), ['-D', data, '-m', 'fast', '-w', 'stop'], as).catch(() => {});
      await fs.rm(dir, { recursive: true, force: true });
    },
  };
}
