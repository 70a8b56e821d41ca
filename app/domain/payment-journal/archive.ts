import { createHash, createPublicKey, verify as verifySignature } from 'node:crypto';
import { type JournalClosure, type JournalStart, normaliseTotals } from './closures';
import { entryToJson, type JournalEntry } from './entries';
import { type ChainResult, type ClosuresResult, verifyChain, verifyClosures } from './verify';

/*
 * The journal's archive (docs/payment-journal.md, « Archives »): one JSON Lines file, UTF-8, a line
 * per object. First the manifest (the period, where the entries and closures start, the shop's
 * public key), then the period's entries in seq order, then its closures, and last the signature:
 * Ed25519 over every byte before the signature's line, by the shop's journal key. Verifying needs
 * only the file: the signature with the key it names (which the auditor compares with the one the
 * back office shows), then the chain and the closures recomputed.
 */

export const ARCHIVE_FORMAT = 'soovenirs-payment-journal-archive/1';

export interface ArchiveManifest {
  type: 'manifest';
  format: typeof ARCHIVE_FORMAT;
  /** Paris days, inclusive. */
  from: string;
  to: string;
  generatedAt: string;
  /** The chain just before the first entry: its number, the hash it follows, the perpetual total. */
  start: { seq: number; previousHash: string; perpetualCents: number };
  entryCount: number;
  closureCount: number;
  /** The shop's journal key: Ed25519, SubjectPublicKeyInfo DER in base64, and its SHA-256. */
  publicKey: string;
  keyFingerprint: string;
}

export interface ArchiveSignature {
  type: 'signature';
  algorithm: 'Ed25519';
  /** Base64 signature of the bytes of every line above (each with its newline). */
  value: string;
}

/** SHA-256 (hex) of a public key's DER: what the back office and the attestation show. */
export function keyFingerprint(publicKeyBase64: string): string {
  return createHash('sha256').update(Buffer.from(publicKeyBase64, 'base64')).digest('hex');
}

function closureToJson(closure: JournalClosure): Record<string, unknown> {
  return { type: 'closure', ...closure, closedAt: closure.closedAt.toISOString() };
}

/** The archive's text, signed by `sign` (Ed25519 over the bytes given). */
export function buildArchive(input: {
  from: string;
  to: string;
  generatedAt: Date;
  start: { seq: number; previousHash: string; perpetualCents: number };
  entries: readonly JournalEntry[];
  closures: readonly JournalClosure[];
  publicKey: string;
  sign: (data: Buffer) => Buffer;
}): string {
  const manifest: ArchiveManifest = {
    type: 'manifest',
    format: ARCHIVE_FORMAT,
    from: input.from,
    to: input.to,
    generatedAt: input.generatedAt.toISOString(),
    start: input.start,
    entryCount: input.entries.length,
    closureCount: input.closures.length,
    publicKey: input.publicKey,
    keyFingerprint: keyFingerprint(input.publicKey),
  };
  const lines = [
    manifest,
    ...input.entries.map((entry) => ({ type: 'entry', ...entryToJson(entry) })),
    ...input.closures.map(closureToJson),
  ].map((line) => `${JSON.stringify(line)}\n`);
  const body = lines.join('');
  const signature: ArchiveSignature = {
    type: 'signature',
    algorithm: 'Ed25519',
    value: input.sign(Buffer.from(body, 'utf8')).toString('base64'),
  };
  return `${body}${JSON.stringify(signature)}\n`;
}

export type ArchiveResult =
  | { ok: true; manifest: ArchiveManifest; chain: Extract<ChainResult, { ok: true }>; closures: number }
  | { ok: false; reason: string; problem?: Extract<ChainResult | ClosuresResult, { ok: false }>['problem'] };

function entryOf(line: Record<string, unknown>): JournalEntry {
  return {
    seq: Number(line.seq),
    recordedAt: new Date(String(line.recordedAt)),
    kind: String(line.kind),
    orderNumber: String(line.orderNumber),
    documentNumber: line.documentNumber === null ? null : String(line.documentNumber),
    amountCents: Number(line.amountCents),
    method: String(line.method),
    provider: line.provider === null ? null : String(line.provider),
    actor: String(line.actor),
    demo: line.demo === true,
    sourceTable: String(line.sourceTable),
    sourceId: String(line.sourceId),
    previousHash: String(line.previousHash),
    hash: String(line.hash),
  };
}

function closureOf(line: Record<string, unknown>): JournalClosure {
  return {
    seq: Number(line.seq),
    period: String(line.period) as JournalClosure['period'],
    periodKey: String(line.periodKey),
    closedAt: new Date(String(line.closedAt)),
    firstSeq: line.firstSeq === null ? null : Number(line.firstSeq),
    lastSeq: line.lastSeq === null ? null : Number(line.lastSeq),
    chainHash: String(line.chainHash),
    totals: normaliseTotals(line.totals),
    perpetualCents: Number(line.perpetualCents),
    previousHash: String(line.previousHash),
    hash: String(line.hash),
  };
}

/**
 * Verifies an archive's bytes offline: its signature by the key it names (and, when given, that
 * this key is the expected one), then its entries' chain and its closures. French reasons.
 */
export function verifyArchive(bytes: Buffer, expectedFingerprint?: string): ArchiveResult {
  const text = bytes.toString('utf8');
  const withoutLast = text.endsWith('\n') ? text.slice(0, -1) : text;
  const cut = withoutLast.lastIndexOf('\n');
  if (cut < 0) return { ok: false, reason: 'fichier illisible\u00a0: ni manifeste ni signature' };
  const body = Buffer.from(withoutLast.slice(0, cut + 1), 'utf8');
  let manifest: ArchiveManifest;
  let signature: ArchiveSignature;
  let lines: Array<Record<string, unknown>>;
  try {
    signature = JSON.parse(withoutLast.slice(cut + 1)) as ArchiveSignature;
    lines = withoutLast
      .slice(0, cut)
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    manifest = lines[0] as unknown as ArchiveManifest;
  } catch {
    return { ok: false, reason: 'fichier illisible\u00a0: une ligne n’est pas du JSON' };
  }
  if (manifest?.type !== 'manifest' || manifest.format !== ARCHIVE_FORMAT || signature?.type !== 'signature') {
    return { ok: false, reason: `ce fichier n’est pas une archive ${ARCHIVE_FORMAT}` };
  }
  if (keyFingerprint(manifest.publicKey) !== manifest.keyFingerprint) {
    return { ok: false, reason: 'l’empreinte de la clé ne correspond pas à la clé publique du manifeste' };
  }
  if (expectedFingerprint && expectedFingerprint.toLowerCase() !== manifest.keyFingerprint) {
    return { ok: false, reason: `signée par une autre clé (${manifest.keyFingerprint}) que celle attendue` };
  }
  let signed = false;
  try {
    const key = createPublicKey({ key: Buffer.from(manifest.publicKey, 'base64'), format: 'der', type: 'spki' });
    signed = verifySignature(null, body, key, Buffer.from(signature.value, 'base64'));
  } catch {
    signed = false;
  }
  if (!signed) return { ok: false, reason: 'signature invalide\u00a0: le fichier a été modifié après sa signature' };
  const entries = lines.filter((line) => line.type === 'entry').map(entryOf);
  const closures = lines.filter((line) => line.type === 'closure').map(closureOf);
  if (entries.length !== manifest.entryCount || closures.length !== manifest.closureCount) {
    return { ok: false, reason: 'le nombre d’écritures ou de clôtures diffère du manifeste' };
  }
  const chain = verifyChain(entries, { seq: manifest.start.seq, previousHash: manifest.start.previousHash });
  if (!chain.ok) return { ok: false, reason: 'chaîne rompue', problem: chain.problem };
  const start: JournalStart = {
    previousHash: manifest.start.previousHash,
    perpetualCents: manifest.start.perpetualCents,
  };
  const checked = verifyClosures(entries, closures, { start, linkOnlyConsecutive: true });
  if (!checked.ok) return { ok: false, reason: 'clôture incohérente', problem: checked.problem };
  return { ok: true, manifest, chain, closures: closures.length };
}
