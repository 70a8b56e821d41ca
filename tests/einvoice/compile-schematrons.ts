import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { MANIFEST_PATH, type Manifest, SCHEMATRONS, SEF_DIR, sha256Of, XSLT_DIR } from './schematrons';

/*
 * Compiles the vendored schematron XSLTs to SaxonJS SEF (about 2,5 minutes each on two cores),
 * relocatable so that the SEF works from any checkout, gzipped (5 MB of JSON become 150 kB), and
 * records their sources' hashes in the manifest. Run it after replacing the XSLTs:
 *   npm run einvoice:compile
 */

const require = createRequire(import.meta.url);
const xslt3 = require.resolve('xslt3/xslt3.js');
const saxonVersion = (require('xslt3/package.json') as { version: string }).version;

mkdirSync(SEF_DIR, { recursive: true });
const manifest: Manifest = {};
for (const schematron of SCHEMATRONS) {
  const source = path.join(XSLT_DIR, schematron.xslt);
  const temporary = path.join(os.tmpdir(), `${schematron.xslt}.${process.pid}.sef.json`);
  const started = Date.now();
  execFileSync(process.execPath, [xslt3, `-xsl:${source}`, `-export:${temporary}`, '-relocate:on', '-nogo'], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  writeFileSync(path.join(SEF_DIR, schematron.sef), gzipSync(readFileSync(temporary), { level: 9 }));
  rmSync(temporary);
  manifest[schematron.xslt] = { xsltSha256: sha256Of(source), sef: schematron.sef, compiler: `xslt3 ${saxonVersion}` };
  process.stdout.write(`${schematron.xslt}: compiled in ${Math.round((Date.now() - started) / 1000)} s\n`);
}
writeFileSync(MANIFEST_PATH, `${JSON.stringify(manifest, null, 2)}\n`);
