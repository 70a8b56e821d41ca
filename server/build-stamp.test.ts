import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildState, forgetBuildStamp, sourcesFingerprint, writeBuildStamp } from './build-stamp';

/*
 * `npm start` serves build/ only if it was made from the sources on disk: a project tree in a temp
 * folder, "built" (a server entry and the stamp the build's buildEnd hook writes), then updated.
 */

const trees: string[] = [];
afterEach(() => {
  for (const tree of trees.splice(0)) fs.rmSync(tree, { recursive: true, force: true });
});

function write(root: string, file: string, content: string) {
  fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  fs.writeFileSync(path.join(root, file), content);
}

function builtTree(): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'soovenirs-stamp-'));
  trees.push(root);
  write(root, 'app/root.tsx', 'export default function Root() {}');
  write(root, 'app/routes/home.tsx', 'export default function Home() {}');
  write(root, 'server/app.ts', 'export function createApp() {}');
  write(root, 'public/favicon.svg', '<svg/>');
  write(root, 'vite.config.ts', 'export default {}');
  write(root, 'package-lock.json', '{"lockfileVersion":3}');
  write(root, 'content/pages/a-propos.md', '# À propos');
  write(root, 'build/server/index.js', 'export {}');
  writeBuildStamp(path.join(root, 'build'), sourcesFingerprint(root));
  return root;
}

describe('build/ freshness', () => {
  it('is fresh right after a build', () => {
    expect(buildState(builtTree())).toBe('fresh');
  });

  it.each([
    ['a route changed', 'app/routes/home.tsx', 'export default function Home() { return 1 }'],
    ['a route added', 'app/routes/new.tsx', 'export default function New() {}'],
    ['a public file changed', 'public/favicon.svg', '<svg viewBox="0 0 1 1"/>'],
    // The Express server and the startup are in the server bundle (docs/decisions/033).
    ['the server changed', 'server/app.ts', 'export function createApp() { return 1 }'],
    ['the dependencies changed', 'package-lock.json', '{"lockfileVersion":3,"packages":{}}'],
    ['the Vite configuration changed', 'vite.config.ts', 'export default { base: "/" }'],
  ])('is stale when %s', (_what, file, content) => {
    const root = builtTree();
    write(root, file, content);
    expect(buildState(root)).toBe('stale');
  });

  it('is stale when a file is removed, even with the same dates elsewhere', () => {
    const root = builtTree();
    fs.rmSync(path.join(root, 'app/routes/home.tsx'));
    expect(buildState(root)).toBe('stale');
  });

  it('stays fresh when only what the build does not read changes (tests, content read at run time)', () => {
    const root = builtTree();
    write(root, 'app/routes/home.test.tsx', 'it("works", () => {})');
    write(root, 'server/app.test.ts', 'it("works", () => {})');
    write(root, 'content/pages/a-propos.md', '# À propos de nous');
    // An unchanged file written again (a checkout, an archive) has a new date, the same content.
    const home = path.join(root, 'app/routes/home.tsx');
    fs.writeFileSync(home, fs.readFileSync(home));
    expect(buildState(root)).toBe('fresh');
  });

  it('is stale without a stamp (a build older than the stamp, or an interrupted one)', () => {
    const root = builtTree();
    forgetBuildStamp(path.join(root, 'build'));
    expect(buildState(root)).toBe('stale');
  });

  it('is missing without a server entry', () => {
    const root = builtTree();
    fs.rmSync(path.join(root, 'build/server'), { recursive: true });
    expect(buildState(root)).toBe('missing');
  });
});
