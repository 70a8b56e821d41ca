import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');

export interface CommandOutcome {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * `npm run journal:verify` as an auditor runs it: the real command (scripts/journal-verify.ts) in
 * its own process, reading the database `env.DATABASE_URL` names. Its exit code and what it printed.
 */
export async function runJournalVerify(
  env: { DATABASE_URL: string } & Record<string, string>,
): Promise<CommandOutcome> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', 'scripts/journal-verify.ts'], {
      cwd: root,
      env: { ...process.env, BASE_URL: '', ...env },
      timeout: 60_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failure = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failure.code ?? -1, stdout: failure.stdout ?? '', stderr: failure.stderr ?? '' };
  }
}
