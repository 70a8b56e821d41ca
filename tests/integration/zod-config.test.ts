import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/*
 * zod probes `new Function("")` the first time an object schema is built unless `jitless` is set
 * already, and the Content-Security-Policy reports the attempt on every page that loads the module.
 * The setting lives in app/domain/zod-config.ts: every module a browser may load that imports zod
 * imports it too (so that it runs before the module's schemas, whatever the bundle's chunks), and
 * the root route imports it first.
 */

const appDir = path.resolve(import.meta.dirname, '../../app');

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return /\.(ts|tsx)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

describe('zod’s jitless setting', () => {
  it('is imported by every module the browser may load that imports zod', () => {
    const importsZod = /from '(zod|zod\/v4|zod\/mini)'/;
    const missing = sources(appDir)
      .filter((file) => !file.endsWith('zod-config.ts'))
      // The server's modules never reach a browser (and the server applies the setting at start).
      .filter((file) => !file.includes(`${path.sep}server${path.sep}`) && !/\.server\.tsx?$/.test(file))
      .filter((file) => !file.endsWith('entry.server.tsx'))
      .filter((file) => {
        const text = fs.readFileSync(file, 'utf8');
        return importsZod.test(text) && !text.includes('zod-config');
      })
      .map((file) => path.relative(appDir, file));
    expect(missing).toEqual([]);
  });

  it('is the root route’s first import', () => {
    const root = fs.readFileSync(path.join(appDir, 'root.tsx'), 'utf8');
    const firstImport = root.split('\n').find((line) => line.startsWith('import '));
    expect(firstImport).toBe("import '~/domain/zod-config';");
  });
});
