import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildState } from '../../server/build-stamp';
import { spawnServer } from '../support/server';

/*
 * `npm start` on a shop's machine: its own embedded PostgreSQL in DATA_DIR. A start that fails after
 * the database opened must not leave that PostgreSQL running; the build the run made is the one
 * `npm start` accepts as fresh (build/.stamp written by the build itself).
 */

const root = path.resolve(import.meta.dirname, '../..');

/** The postmasters running on this cluster, found by their data directory (`postgres -D …`). */
function postmastersOf(pgData: string): number[] {
  return fs
    .readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        const args = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
        return path.basename(args[0] ?? '') === 'postgres' && args[args.indexOf('-D') + 1] === pgData;
      } catch {
        return false; // gone meanwhile
      }
    })
    .map(Number);
}

describe('npm start', () => {
  let dataDir: string;
  let blocker: net.Server;
  let port: number;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'soovenirs-start-'));
    blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    port = (blocker.address() as net.AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise((resolve) => blocker.close(resolve));
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('accepts the build this run made as fresh', () => {
    expect(buildState(root)).toBe('fresh');
  });

  it('on a port already taken, says so in French and stops the PostgreSQL it started', async () => {
    const { child, output } = spawnServer(
      { PORT: String(port), HOST: '127.0.0.1', BASE_URL: `http://127.0.0.1:${port}`, DATA_DIR: dataDir },
      ['DATABASE_URL', 'APP_SECRET'],
    );
    const code = await new Promise<number | null>((resolve) => child.once('exit', (exitCode) => resolve(exitCode)));
    expect(code, output()).toBe(1);
    expect(output()).toContain(
      `Le port ${port} est déjà utilisé sur 127.0.0.1\u00A0: arrêtez le programme qui l’occupe`,
    );
    // The database had been created and migrated: the failure came after it opened.
    expect(fs.existsSync(path.join(dataDir, 'postgres/PG_VERSION'))).toBe(true);
    expect(postmastersOf(path.join(dataDir, 'postgres'))).toEqual([]);
    expect(fs.existsSync(path.join(dataDir, 'postgres/postmaster.pid'))).toBe(false);
  });
});
