import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';

/*
 * The official Factur-X validation artefacts vendored in factur-x-1.09-en16931/ (README there):
 * the two blocking schematrons, compiled once to SaxonJS's SEF format (compile-schematrons.ts)
 * because compiling them takes minutes and CI has no minutes to spare. The manifest records the
 * SHA-256 of each XSLT its SEF was compiled from; a unit test refuses a SEF older than its source.
 */

export const ARTEFACTS_DIR = path.join(import.meta.dirname, 'factur-x-1.09-en16931');
export const XSLT_DIR = path.join(ARTEFACTS_DIR, 'xslt');
export const SEF_DIR = path.join(ARTEFACTS_DIR, 'sef');
export const MANIFEST_PATH = path.join(SEF_DIR, 'manifest.json');
export const XSD_PATH = path.join(ARTEFACTS_DIR, 'xsd', 'Factur-X_EN16931.xsd');

export interface Schematron {
  /** What failures are reported as. */
  label: string;
  xslt: string;
  sef: string;
}

/** The EN 16931 rules for CII, then the French rules (blocking version). */
export const SCHEMATRONS: readonly Schematron[] = [
  { label: 'EN 16931', xslt: 'FACTUR-X_EN16931.xslt', sef: 'FACTUR-X_EN16931.sef.json.gz' },
  { label: 'BR-FR', xslt: 'BR-FR-Flux2-Schematron-CII.xslt', sef: 'BR-FR-Flux2-Schematron-CII.sef.json.gz' },
];

export type Manifest = Record<string, { xsltSha256: string; sef: string; compiler: string }>;

export function sha256Of(file: string): string {
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}

export function readManifest(): Manifest {
  return JSON.parse(readFileSync(MANIFEST_PATH, 'utf8')) as Manifest;
}
