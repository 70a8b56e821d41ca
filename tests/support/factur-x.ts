import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { expect } from 'vitest';
import { SCHEMATRONS, SEF_DIR, XSD_PATH, XSLT_DIR } from '../einvoice/schematrons';

/*
 * Is this PDF a valid Factur-X (EN 16931 profile)? What can be checked without a PDF/A validator
 * (veraPDF is not installable here): `factur-x.xml` is attached (poppler's pdfdetach), every font
 * is embedded (pdffonts), the XMP declares PDF/A-3B and the Factur-X extension; the XML passes the
 * official XSD (xmllint) and both blocking schematrons, EN 16931 and the French BR-FR (SaxonJS,
 * from the SEFs compiled once: tests/einvoice/). The stylesheets are loaded once per process
 * (about 3 s), then each document takes a fraction of a second: validate many documents in one
 * test file rather than one per file.
 */

const require = createRequire(import.meta.url);

interface SaxonJs {
  transform(
    options: {
      stylesheetInternal: unknown;
      stylesheetBaseURI: string;
      sourceText: string;
      destination: 'serialized';
    },
    mode: 'sync',
  ): { principalResult: string };
}

let saxon: { engine: SaxonJs; stylesheets: Array<{ label: string; internal: unknown }> } | null = null;

function schematrons() {
  if (!saxon) {
    const engine = require('saxon-js') as SaxonJs;
    const stylesheets = SCHEMATRONS.map((schematron) => ({
      label: schematron.label,
      internal: JSON.parse(gunzipSync(readFileSync(path.join(SEF_DIR, schematron.sef))).toString('utf8')) as unknown,
    }));
    saxon = { engine, stylesheets };
  }
  return saxon;
}

const XSLT_BASE = pathToFileURL(`${XSLT_DIR}/`).href;

function decodeXml(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');
}

/** The failed assertions of an SVRL report (warnings left out), as « [id] message (location) ». */
export function failedAsserts(svrl: string): string[] {
  const failures: string[] = [];
  for (const match of svrl.matchAll(/<svrl:failed-assert\b([^>]*)>([\s\S]*?)<\/svrl:failed-assert>/g)) {
    const attributes = match[1] as string;
    if (/\bflag="warning"/.test(attributes)) continue;
    const id = /\bid="([^"]*)"/.exec(attributes)?.[1] ?? '?';
    const location = /\blocation="([^"]*)"/.exec(attributes)?.[1] ?? '';
    const text = /<svrl:text>([\s\S]*?)<\/svrl:text>/.exec(match[2] as string)?.[1] ?? '';
    failures.push(`[${id}] ${decodeXml(text).replace(/\s+/g, ' ').trim()} (${decodeXml(location)})`);
  }
  return failures;
}

/** What the XSD and both schematrons say of a Factur-X XML; empty when it is valid. */
export function facturXmlProblems(xml: string): string[] {
  const problems: string[] = [];
  const dir = mkdtempSync(path.join(os.tmpdir(), 'factur-x-'));
  try {
    const file = path.join(dir, 'factur-x.xml');
    writeFileSync(file, xml);
    const xsd = spawnSync('xmllint', ['--noout', '--schema', XSD_PATH, file], { encoding: 'utf8' });
    if (xsd.error) throw xsd.error;
    if (xsd.status !== 0) problems.push(`XSD: ${xsd.stderr.trim()}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const { engine, stylesheets } = schematrons();
  for (const stylesheet of stylesheets) {
    const report = engine.transform(
      {
        stylesheetInternal: stylesheet.internal,
        stylesheetBaseURI: XSLT_BASE,
        sourceText: xml,
        destination: 'serialized',
      },
      'sync',
    ).principalResult;
    for (const failure of failedAsserts(report)) problems.push(`${stylesheet.label}: ${failure}`);
  }
  return problems;
}

function run(command: string, args: string[]): string {
  const result = spawnSync(command, args, { encoding: 'utf8' });
  if (result.error) throw result.error;
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')}: ${result.stderr}`);
  return result.stdout;
}

/** What a Factur-X PDF is made of, and what is wrong with it (empty when nothing is). */
export function facturXProblems(pdf: Buffer): { problems: string[]; xml: string | null } {
  const problems: string[] = [];
  const dir = mkdtempSync(path.join(os.tmpdir(), 'factur-x-pdf-'));
  try {
    const file = path.join(dir, 'document.pdf');
    writeFileSync(file, pdf);
    const attachments = run('pdfdetach', ['-list', file]);
    const index = /^(\d+): factur-x\.xml$/m.exec(attachments)?.[1];
    if (!index) problems.push(`no factur-x.xml attached: ${attachments.trim()}`);
    // pdffonts: a header, a rule, then one font a line whose « emb » column says yes or no.
    const fonts = run('pdffonts', [file]).split('\n').slice(2).filter(Boolean);
    if (fonts.length === 0) problems.push('pdffonts lists no font');
    for (const font of fonts) {
      const columns = font.trim().split(/\s+/);
      // name type [encoding words] emb sub uni object-id generation: emb is 5th from the end.
      if (columns.at(-5) !== 'yes') problems.push(`font not embedded: ${font.trim()}`);
    }
    const text = pdf.toString('latin1');
    for (const mark of [
      '<pdfaid:part>3</pdfaid:part>',
      '<pdfaid:conformance>B</pdfaid:conformance>',
      '<fx:ConformanceLevel>EN 16931</fx:ConformanceLevel>',
      '<fx:DocumentFileName>factur-x.xml</fx:DocumentFileName>',
      '/OutputIntents',
      '/AFRelationship',
    ]) {
      if (!text.includes(mark)) problems.push(`PDF/A-3 / Factur-X metadata: ${mark} missing`);
    }
    if (!index) return { problems, xml: null };
    const xmlFile = path.join(dir, 'factur-x.xml');
    run('pdfdetach', ['-save', index, '-o', xmlFile, file]);
    const xml = readFileSync(xmlFile, 'utf8');
    problems.push(...facturXmlProblems(xml));
    return { problems, xml };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Expects a valid Factur-X PDF: the attached XML passes the XSD, EN 16931 and BR-FR; fonts are
 * embedded; the PDF/A-3 metadata is there. Fails with every rule's message. Returns the XML.
 */
export function expectValidFacturX(pdf: Buffer | Uint8Array, name = 'document'): string {
  const { problems, xml } = facturXProblems(Buffer.from(pdf));
  expect(problems, `${name} is not a valid Factur-X`).toEqual([]);
  return xml as string;
}

/**
 * For journeys that download documents: collect each PDF as the test goes (no cost), validate them
 * all in the file's afterAll, where the stylesheets' first load (seconds on a busy CI) does not eat
 * into a test's own time. Fails with every document's problems.
 */
export function facturXBatch() {
  const pending: Array<{ name: string; pdf: Buffer }> = [];
  return {
    add(pdf: Buffer | Uint8Array, name: string) {
      pending.push({ name, pdf: Buffer.from(pdf) });
    },
    expectAllValid() {
      const problems = pending.flatMap(({ name, pdf }) =>
        facturXProblems(pdf).problems.map((problem) => `${name}: ${problem}`),
      );
      expect(problems, 'these documents are not valid Factur-X').toEqual([]);
    },
  };
}
