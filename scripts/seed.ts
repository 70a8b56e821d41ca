import { parseArgs } from 'node:util';
import { DEFAULT_DEMO_SEED, seedDemo } from '../app/server/seed/demo.server';
import { DEMO_PASSWORD } from '../app/server/seed/demo-data';
import { ensureDefaultPriceList } from '../app/server/seed/price-list.server';
import { CommandError, readArguments, reportFailure, withDatabase } from './database';

/*
 * npm run seed [-- --demo [--orders N] [--seed-value S] [--force]]
 * Always makes sure the default price list exists (idempotent). With --demo, adds N demo orders
 * (default 100) with their customers, payments, invoices and history, unless the shop already has
 * orders (then refuses with exit code 1, unless --force).
 */

const usage = `Usage : npm run seed [-- --demo [--orders N] [--seed-value S] [--force]]

Sans option : crée la grille tarifaire par défaut si aucune n'existe (sans effet sinon).
  --demo          ajoute des données de démonstration (clients, commandes, paiements, factures)
  --orders N      nombre de commandes de démonstration (défaut 100, maximum 1 000 000)
  --seed-value S  graine du générateur : même graine, mêmes données (défaut « ${DEFAULT_DEMO_SEED} »)
  --force         ajoute les données de démonstration même si des commandes existent déjà
Base de données : DATABASE_URL si défini, sinon la PostgreSQL embarquée de DATA_DIR (./data).`;

const fr = new Intl.NumberFormat('fr-FR');

function parse() {
  return parseArgs({
    options: {
      demo: { type: 'boolean', default: false },
      orders: { type: 'string' },
      'seed-value': { type: 'string' },
      force: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
    allowPositionals: false,
  });
}

async function main(): Promise<void> {
  const parsed = readArguments(parse, usage);
  if (!parsed) return;
  const { values } = parsed;
  if (!values.demo && (values.orders !== undefined || values['seed-value'] !== undefined || values.force)) {
    throw new CommandError('--orders, --seed-value et --force ne s’utilisent qu’avec --demo.');
  }
  const orders = values.orders === undefined ? 100 : Number(values.orders);
  if (!Number.isInteger(orders) || orders < 1 || orders > 1_000_000) {
    throw new CommandError(`--orders attend un nombre entier entre 1 et 1 000 000 (reçu « ${values.orders} »).`);
  }

  await withDatabase(async () => {
    const priceList = await ensureDefaultPriceList();
    const what = {
      created: 'créée',
      activated: 'réactivée (aucune grille n’était active)',
      unchanged: 'déjà en place',
    }[priceList.action];
    console.log(`Grille tarifaire active : version ${priceList.version}, ${what}.`);
    if (!values.demo) return;

    console.log(`Génération de ${fr.format(orders)} commandes de démonstration…`);
    let lastShown = 0;
    const result = await seedDemo({
      orders,
      seed: values['seed-value'],
      force: values.force,
      onProgress: ({ phase, done, total }) => {
        if (phase === 'customers' && done === total) console.log(`  ${fr.format(total)} clients écrits`);
        if (phase === 'orders' && done > lastShown && (done === total || done - lastShown >= total / 10)) {
          lastShown = done;
          console.log(`  commandes : ${fr.format(done)} / ${fr.format(total)} (${Math.floor((done / total) * 100)} %)`);
        }
      },
    });
    if (!result.ok) {
      throw new CommandError(
        `La base contient déjà ${fr.format(result.existingOrders)} commandes : données de démonstration non ajoutées.\n` +
          'Les factures de démonstration prendraient des numéros dans la suite légale des factures. ' +
          'Relancez avec --force pour les ajouter quand même (jamais sur la base d’une boutique réelle).',
      );
    }
    const seconds =
      result.milliseconds < 10_000
        ? Math.round(result.milliseconds / 100) / 10
        : Math.round(result.milliseconds / 1000);
    console.log(
      `${fr.format(result.orders)} commandes créées en ${fr.format(seconds)} s ` +
        `(${fr.format(result.customers)} clients, ${fr.format(result.items)} articles, ` +
        `${fr.format(result.payments)} paiements, ${fr.format(result.invoices)} factures, ` +
        `${fr.format(result.creditNotes)} avoirs, ${fr.format(result.events)} événements).`,
    );
    console.log(`Mot de passe des comptes clients de démonstration (@example.fr) : ${DEMO_PASSWORD}`);
  });
}

await main().catch(reportFailure);
