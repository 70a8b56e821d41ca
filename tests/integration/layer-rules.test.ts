import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/*
 * The layer rules (docs/architecture.md, « Layers ») are Biome's noRestrictedImports, set per
 * folder in biome.jsonc: `npm run lint` must fail on an import that breaks them. Each case lints a
 * small file with the project's own configuration and Biome, in a scratch copy of the folders (the
 * work tree is left alone).
 */

const root = path.resolve(import.meta.dirname, '../..');
const biome = path.join(root, 'node_modules/.bin/biome');
let scratch: string;

beforeAll(() => {
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'soovenirs-layers-'));
  fs.copyFileSync(path.join(root, 'biome.jsonc'), path.join(scratch, 'biome.jsonc'));
});
afterAll(() => {
  fs.rmSync(scratch, { recursive: true, force: true });
});

function lint(file: string, source: string): { status: number | null; output: string } {
  fs.mkdirSync(path.dirname(path.join(scratch, file)), { recursive: true });
  fs.writeFileSync(path.join(scratch, file), source);
  // The scratch folder is no git work tree: Biome's .gitignore lookup is off there.
  const result = spawnSync(biome, ['lint', '--colors=off', '--vcs-enabled=false', file], {
    cwd: scratch,
    encoding: 'utf8',
  });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

const DOMAIN = 'app/domain is pure';
const COMPONENTS = 'components import nothing from app/server';
const ROUTES = 'routes never import app/server/db';

describe('layer rules', () => {
  it.each([
    ['app/domain/x.ts', "import { db } from '~/server/db/client.server';\n\nexport const x = db;\n", DOMAIN],
    [
      'app/domain/orders/x.ts',
      "import { getUser } from '../../server/auth/session.server';\n\nexport const x = getUser;\n",
      DOMAIN,
    ],
    ['app/domain/x.ts', "import { Button } from '~/components/ui/button';\n\nexport const x = Button;\n", DOMAIN],
    ['app/domain/x.ts', "import { meta } from '~/routes/site/home';\n\nexport const x = meta;\n", DOMAIN],
    [
      'app/components/x.tsx',
      "import type { SessionUser } from '~/server/auth/session.server';\n\nexport type X = SessionUser;\n",
      COMPONENTS,
    ],
    [
      'app/components/admin/x.tsx',
      "import { log } from '../../server/log.server';\n\nexport const x = log;\n",
      COMPONENTS,
    ],
    ['app/routes/site/x.tsx', "import { db } from '~/server/db/client.server';\n\nexport const x = db;\n", ROUTES],
    ['app/routes/admin/x.tsx', "import { orders } from '~/server/db/schema';\n\nexport const x = orders;\n", ROUTES],
  ])('%s: %s fails the lint', (file, source, message) => {
    const { status, output } = lint(file, source);
    expect(status, output).not.toBe(0);
    expect(output).toContain('lint/style/noRestrictedImports');
    expect(output).toContain(message);
  });

  it.each([
    ['app/domain/x.ts', "import { formatEuros } from '~/domain/format';\n\nexport const x = formatEuros;\n"],
    ['app/domain/orders/x.ts', "import { NBSP } from '../format';\n\nexport const x = NBSP;\n"],
    [
      'app/components/x.tsx',
      "import type { SessionUser } from '~/domain/account/session-user';\n\nexport type X = SessionUser;\n",
    ],
    [
      'app/components/x.tsx',
      "import { renderToString } from 'react-dom/server';\n\nexport const x = renderToString;\n",
    ],
    ['app/routes/site/x.tsx', "import { getUser } from '~/server/auth/session.server';\n\nexport const x = getUser;\n"],
  ])('%s: %s passes', (file, source) => {
    const { status, output } = lint(file, source);
    expect(output).not.toContain('noRestrictedImports');
    expect(status, output).toBe(0);
  });
});
