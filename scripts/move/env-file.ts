import fs from 'node:fs/promises';
import path from 'node:path';

/*
 * The new machine's environment after a move: `NAME=value` lines that a shell (`set -a; . file`)
 * and systemd's EnvironmentFile= both read. It holds APP_SECRET and passwords: written with mode
 * 600 from its creation (never readable by others, even for an instant), never printed.
 */

/** A value as both readers take it: bare when plain, else in single quotes. */
function quoted(value: string): string {
  return /^[\w@%+=:,./~-]*$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

export async function writeEnvFile(file: string, variables: Record<string, string>): Promise<void> {
  const text = Object.entries(variables)
    .map(([name, value]) => `${name}=${quoted(value)}\n`)
    .join('');
  await fs.mkdir(path.dirname(file), { recursive: true });
  // Replaced whole: an earlier run's file goes, and the new one is created with mode 600.
  await fs.rm(file, { force: true });
  await fs.writeFile(
    file,
    `# Written by npm run db:move: the shop's environment on the external PostgreSQL.\n${text}`,
    {
      mode: 0o600,
      flag: 'wx',
    },
  );
}
