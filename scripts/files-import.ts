import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import { and, eq, isNull } from 'drizzle-orm';
import { formatFileSize, sanitizeFileName } from '../app/domain/files/delivered-files';
import { OTHER_SUPPORT } from '../app/domain/files/uploads';
import { db } from '../app/server/db/client.server';
import { orderFiles, orderItems, orders } from '../app/server/db/schema';
import { type StoreOrderFileResult, storeOrderFile } from '../app/server/files/order-files.server';
import { CommandError, readArguments, reportFailure, withDatabase } from './database';

/*
 * npm run files:import -- --order SV-2026-000042 <dossier> [--support photos]
 * For the scanning stations (docs/operations.md, « The customers' files »): every file under the folder goes
 * to the order, checksummed (SHA-256) and stored through storeOrderFile, as the back office's uploads. A
 * subfolder named after one of the order's supports (photos, vhs…, or « autres ») gives its files that
 * support; other files take --support, or the order's only support. Files already stored (same name, same
 * SHA-256, computed here first) are skipped: running it again after a stop, or twice, sends only what is
 * missing. Exit code 0 when every file is there, 1 otherwise.
 */

const usage = `Usage : npm run files:import -- --order <numéro> <dossier> [--support <support>]

Dépose tous les fichiers du dossier (et de ses sous-dossiers) sur la commande, avec leur
empreinte SHA-256. Un sous-dossier nommé comme un support de la commande (photos, vhs…, ou
« autres ») donne ce support à ses fichiers ; les autres prennent --support, ou le seul support
de la commande. Les fichiers déjà présents (même nom, même contenu) ne sont pas renvoyés : la
commande peut être relancée après une interruption.
Base de données : DATABASE_URL si défini, sinon la PostgreSQL embarquée de DATA_DIR (./data).`;

interface PlannedFile {
  absolute: string;
  relative: string;
  name: string;
  support: string;
  size: number;
}

function parse() {
  return parseArgs({
    options: {
      order: { type: 'string' },
      support: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
    allowPositionals: true,
  });
}

/** Every file under `root`, sorted, hidden files (.DS_Store…) and system leftovers skipped. */
async function walk(root: string): Promise<string[]> {
  const found: string[] = [];
  const visit = async (dir: string) => {
    const entries = await fs.promises.readdir(dir, { withFileTypes: true });
    entries.sort((a, b) => a.name.localeCompare(b.name));
    for (const entry of entries) {
      if (entry.name.startsWith('.') || entry.name === 'Thumbs.db' || entry.name === 'desktop.ini') continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) await visit(full);
      else if (entry.isFile()) found.push(full);
    }
  };
  await visit(root);
  return found;
}

async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(fs.createReadStream(file, { highWaterMark: 1024 * 1024 }), hash);
  return hash.digest('hex');
}

/** `photo.jpg` and the names storeOrderFile gives it beside another file: `photo (2).jpg`… */
function isNameOrNumbered(candidate: string, name: string): boolean {
  if (candidate === name) return true;
  const dot = name.lastIndexOf('.');
  const stem = dot > 0 ? name.slice(0, dot) : name;
  const extension = dot > 0 ? name.slice(dot) : '';
  if (!candidate.startsWith(`${stem} (`) || !candidate.endsWith(`)${extension}`)) return false;
  return /^\d+$/.test(candidate.slice(stem.length + 2, candidate.length - extension.length - 1));
}

/** The order the files go to: it must exist, be placed, and not be cancelled. */
async function importableOrder(number: string) {
  const [order] = await db()
    .select({ id: orders.id, number: orders.number, placedAt: orders.placedAt, status: orders.status })
    .from(orders)
    .where(eq(orders.number, number));
  if (!order)
    throw new CommandError(`Commande ${number} introuvable : vérifiez son numéro (par exemple SV-2026-000042).`);
  if (!order.placedAt) throw new CommandError(`La commande ${number} n’est pas encore passée : aucun fichier déposé.`);
  if (order.status === 'canceled') throw new CommandError(`La commande ${number} est annulée : aucun fichier déposé.`);
  return order;
}

interface Supports {
  /** The order's lines' supports. */
  supports: string[];
  /** Those and « autres »: the names a sub-folder may have. */
  known: ReadonlySet<string>;
  /** The support of a file outside such a sub-folder: --support, or the order's only one. */
  fallback: string | undefined;
}

async function supportsOf(orderId: string, number: string, asked: string | undefined): Promise<Supports> {
  const lines = await db().select({ type: orderItems.type }).from(orderItems).where(eq(orderItems.orderId, orderId));
  const supports = [...new Set(lines.map((line) => line.type))];
  const known = new Set([...supports, OTHER_SUPPORT]);
  if (asked && !known.has(asked)) {
    throw new CommandError(`Support « ${asked} » inconnu pour la commande ${number} : ${[...known].join(', ')}.`);
  }
  return { supports, known, fallback: asked ?? (supports.length === 1 ? supports[0] : undefined) };
}

/** The whole plan first: a file without a support stops the command before anything is sent. */
async function planImport(folder: string, number: string, { supports, known, fallback }: Supports) {
  const plan: PlannedFile[] = [];
  const orphans: string[] = [];
  for (const absolute of await walk(folder)) {
    const relative = path.relative(folder, absolute);
    const parts = relative.split(path.sep);
    const fromFolder = parts.length > 1 && known.has(parts[0] ?? '') ? parts[0] : undefined;
    const support = fromFolder ?? fallback;
    if (!support) {
      orphans.push(relative);
      continue;
    }
    plan.push({
      absolute,
      relative,
      name: sanitizeFileName(absolute),
      support,
      size: (await fs.promises.stat(absolute)).size,
    });
  }
  if (orphans.length > 0) {
    throw new CommandError(
      `Support inconnu pour ${orphans.length} fichier${orphans.length > 1 ? 's' : ''} (${orphans.slice(0, 5).join(', ')}${orphans.length > 5 ? '…' : ''}) : ` +
        `la commande ${number} a plusieurs supports (${supports.join(', ')}). Rangez-les dans un sous-dossier nommé ` +
        'comme leur support, ou indiquez --support.',
    );
  }
  return plan;
}

type LiveFile = { name: string; sha256: string; sizeBytes: number };

/** Only a file that may already be there (same size, its name or a numbered one) is read twice: its SHA-256 decides. */
async function alreadyThere(file: PlannedFile, live: LiveFile[]): Promise<boolean> {
  const candidates = live.filter((f) => f.sizeBytes === file.size && isNameOrNumbered(f.name, file.name));
  if (candidates.length === 0) return false;
  const sha256 = await sha256Of(file.absolute);
  return candidates.some((f) => f.sha256 === sha256);
}

function outcomeText(result: StoreOrderFileResult): string {
  if (result.status === 'stored') return 'déposé';
  if (result.status === 'renamed') return `renommé en « ${result.file.name} » (un autre fichier porte ce nom)`;
  return 'déjà présent, ignoré';
}

type Counts = { stored: number; renamed: number; skipped: number };

function summary(counts: Counts): string {
  return (
    `Terminé : ${counts.stored + counts.renamed} déposé${counts.stored + counts.renamed > 1 ? 's' : ''}` +
    `${counts.renamed > 0 ? ` (dont ${counts.renamed} renommé${counts.renamed > 1 ? 's' : ''})` : ''}, ` +
    `${counts.skipped} déjà présent${counts.skipped > 1 ? 's' : ''}.`
  );
}

/** Sends the plan's files one by one, saying where it is; those already there are skipped. */
async function importFiles(order: { id: string }, number: string, folder: string, plan: PlannedFile[]): Promise<void> {
  const totalBytes = plan.reduce((sum, file) => sum + file.size, 0);
  console.log(
    `Commande ${number} : ${plan.length} fichier${plan.length > 1 ? 's' : ''}, ${formatFileSize(totalBytes)} à déposer depuis ${folder}.`,
  );
  const live: LiveFile[] = await db()
    .select({ name: orderFiles.name, sha256: orderFiles.sha256, sizeBytes: orderFiles.sizeBytes })
    .from(orderFiles)
    .where(and(eq(orderFiles.orderId, order.id), isNull(orderFiles.deletedAt)));

  const counts: Counts = { stored: 0, renamed: 0, skipped: 0 };
  let doneBytes = 0;
  for (const [index, file] of plan.entries()) {
    const prefix = `[${index + 1}/${plan.length}] ${file.relative} (${formatFileSize(file.size)})`;
    if (await alreadyThere(file, live)) {
      counts.skipped++;
      doneBytes += file.size;
      console.log(`${prefix} : déjà présent, ignoré. ${formatFileSize(doneBytes)} sur ${formatFileSize(totalBytes)}.`);
      continue;
    }
    const result = await storeOrderFile({
      orderId: order.id,
      name: file.absolute,
      support: file.support,
      body: fs.createReadStream(file.absolute, { highWaterMark: 1024 * 1024 }),
      uploadedBy: 'import',
    });
    doneBytes += file.size;
    live.push({ name: result.file.name, sha256: result.file.sha256, sizeBytes: result.file.sizeBytes });
    if (result.status === 'already_there') counts.skipped++;
    else counts[result.status]++;
    console.log(
      `${prefix} : ${outcomeText(result)} (${file.support}, SHA-256 ${result.file.sha256.slice(0, 12)}…). ${formatFileSize(doneBytes)} sur ${formatFileSize(totalBytes)}.`,
    );
  }
  console.log(summary(counts));
}

async function main(): Promise<void> {
  const parsed = readArguments(parse, usage);
  if (!parsed) return;
  const { values, positionals } = parsed;
  const number = values.order?.trim();
  if (!number) throw new CommandError(`L’option --order est obligatoire.\n\n${usage}`);
  if (positionals.length !== 1) throw new CommandError(`Indiquez un seul dossier à déposer.\n\n${usage}`);
  const folder = path.resolve(positionals[0] ?? '');
  const stats = await fs.promises.stat(folder).catch(() => null);
  if (!stats?.isDirectory()) throw new CommandError(`Le dossier ${folder} n’existe pas.`);

  await withDatabase(async () => {
    const order = await importableOrder(number);
    const supports = await supportsOf(order.id, number, values.support);
    const plan = await planImport(folder, number, supports);
    if (plan.length === 0) {
      console.log(`Aucun fichier dans ${folder}.`);
      return;
    }
    await importFiles(order, number, folder, plan);
  });
}

await main().catch(reportFailure);
