import { parseArgs } from 'node:util';
import { adminSection, timeAdmin } from './admin';
import { benchCheckout, checkoutSection } from './checkout';
import { benchFilePreviews, filePreviewsSection } from './files-previews';
import { benchFilesUpload, filesUploadSection } from './files-upload';
import { benchFilesZip, filesZipSection } from './files-zip';
import { benchLighthouse } from './lighthouse';
import { benchPages, pagesSection } from './pages';
import { type PartId, REPORT, writeSection } from './report';
import { ensureBuild, startBenchServer } from './server';
import { timeWorkshop, workshopSection } from './workshop';

/*
 * npm run bench [-- --only pages,lighthouse,admin,workshop,checkout] [--duration S] [--no-baseline]
 *                  [--large N] [--orders N] [--runs N] [--rebuild]
 * Runs the parts, prints their figures and writes each into its section of docs/performance.md.
 */

const PARTS: PartId[] = [
  'pages',
  'lighthouse',
  'admin',
  'workshop',
  'checkout',
  'files-zip',
  'files-upload',
  'files-previews',
];
const SMALL_SHOP = 1000;

const usage = `Usage : npm run bench [-- --only ${PARTS.join(',')}] [--duration S] [--no-baseline] [--large N] [--orders N] [--rebuild]

  --only P       parties à mesurer, séparées par des virgules (défaut : toutes)
  --duration S   secondes de charge par page et par serveur (défaut 10)
  --no-baseline  ne mesure pas les pages avec le cache HTML coupé
  --large N      commandes de la grande boutique du back-office et de l’atelier (défaut 200000)
  --orders N     commandes créées et payées en parallèle (défaut 500)
  --runs N       mesures Lighthouse par page, la médiane est retenue (défaut 1)
  --rebuild      reconstruit l'application avant de mesurer`;

async function runPages(durationS: number, baseline: boolean) {
  console.log('\nPages publiques sous charge');
  const server = await startBenchServer();
  const uncached = baseline ? await startBenchServer({ env: { HTML_CACHE_MAX_ENTRIES: '0' } }) : undefined;
  try {
    const figures = await benchPages({ url: server.url, uncachedUrl: uncached?.url, durationS });
    await writeSection('pages', pagesSection(figures, durationS));
  } finally {
    await uncached?.stop();
    await server.stop();
  }
}

async function runLighthouse(runs: number) {
  console.log('\nLighthouse (mobile)');
  const server = await startBenchServer();
  try {
    await writeSection('lighthouse', await benchLighthouse(server.url, runs));
  } finally {
    await server.stop();
  }
}

async function runAdmin(small: number, large: number) {
  console.log('\nBack-office');
  const [a, b] = await timeAdmin(small, large);
  await writeSection('admin', adminSection(small, large, a, b));
}

async function runWorkshop(small: number, large: number) {
  console.log('\nAtelier');
  const [a, b] = await timeWorkshop(small, large);
  await writeSection('workshop', workshopSection(small, large, a, b));
}

async function runCheckout(orders: number) {
  console.log(`\nPaiement sous charge : ${orders} commandes`);
  // The bench pays through the sandbox: a production server allows it only as a demo shop.
  const server = await startBenchServer({ env: { PAYMENT_SANDBOX: 'on' } });
  try {
    const figures = await benchCheckout(server, orders);
    console.log(checkoutSection(figures));
    await writeSection('checkout', checkoutSection(figures));
  } finally {
    await server.stop();
  }
}

async function runFilesUpload() {
  console.log('\nTéléversement de 1 Go coupé à mi-chemin puis repris');
  const figures = await benchFilesUpload();
  console.log(filesUploadSection(figures));
  await writeSection('files-upload', filesUploadSection(figures));
}

async function runFilePreviews() {
  console.log('\nAperçus des fichiers livrés');
  const figures = await benchFilePreviews();
  console.log(filePreviewsSection(figures));
  await writeSection('files-previews', filePreviewsSection(figures));
}

async function main() {
  const { values } = parseArgs({
    options: {
      only: { type: 'string' },
      duration: { type: 'string', default: '10' },
      'no-baseline': { type: 'boolean', default: false },
      large: { type: 'string', default: '200000' },
      orders: { type: 'string', default: '500' },
      runs: { type: 'string', default: '1' },
      rebuild: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
  });
  if (values.help) {
    console.log(usage);
    return;
  }
  const only = values.only ? values.only.split(',').map((p) => p.trim()) : PARTS;
  const unknown = only.filter((p) => !PARTS.includes(p as PartId));
  if (unknown.length > 0) throw new Error(`Parties inconnues : ${unknown.join(', ')}\n\n${usage}`);
  const durationS = Math.max(1, Number(values.duration) || 10);

  // The previews run in the bench's own process, on a database of their own: no server, no build.
  if (only.some((part) => part !== 'files-previews')) ensureBuild(values.rebuild);
  if (only.includes('pages')) await runPages(durationS, !values['no-baseline']);
  if (only.includes('lighthouse')) await runLighthouse(Math.max(1, Number(values.runs) || 1));
  if (only.includes('admin')) await runAdmin(SMALL_SHOP, Math.max(SMALL_SHOP, Number(values.large) || 200_000));
  if (only.includes('workshop')) await runWorkshop(SMALL_SHOP, Math.max(SMALL_SHOP, Number(values.large) || 200_000));
  if (only.includes('checkout')) await runCheckout(Math.max(1, Number(values.orders) || 500));
  if (only.includes('files-zip')) await writeSection('files-zip', filesZipSection(await benchFilesZip()));
  if (only.includes('files-upload')) await runFilesUpload();
  if (only.includes('files-previews')) await runFilePreviews();
  console.log(`\nRésultats écrits dans ${REPORT}`);
}

main().catch((error) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
});
