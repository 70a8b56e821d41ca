import { parseArgs } from 'node:util';
import { adminInputSchema, createOrPromoteAdmin } from '../app/server/seed/admin.server';
import { CommandError, readArguments, reportFailure, withDatabase } from './database';

/*
 * npm run admin:create -- --email E --password P [--first-name F] [--last-name L]
 * Creates an administrator, or promotes the existing account with that e-mail (and sets its
 * password when --password is given). A new account needs its names (staff appear by name in the
 * history and the Journal). Deletes nothing. Exit code 0 on success, 1 otherwise.
 */

const usage = `Usage : npm run admin:create -- --email <adresse> --password <mot de passe> [--first-name <prénom>] [--last-name <nom>]

Crée un compte administrateur (prénom et nom obligatoires pour un nouveau compte), ou promeut
administrateur le compte existant de cette adresse (et change son mot de passe si --password est
donné). Aucun compte n'est supprimé.
Base de données : DATABASE_URL si défini, sinon la PostgreSQL embarquée de DATA_DIR (./data).`;

async function main(): Promise<void> {
  const parsed = readArguments(parse, usage);
  if (!parsed) return;
  const { values } = parsed;
  const input = {
    email: values.email ?? '',
    password: values.password,
    firstName: values['first-name'],
    lastName: values['last-name'],
  };
  // Check the input before starting a database.
  if (!values.email) throw new CommandError(`L’option --email est obligatoire.\n\n${usage}`);
  const checked = adminInputSchema.safeParse(input);
  if (!checked.success) throw new CommandError(checked.error.issues.map((i) => i.message).join('\n'));

  const result = await withDatabase(() => createOrPromoteAdmin(input, { requireName: true }));
  if (!result.ok) throw new CommandError(result.errors.join('\n'));

  const password = result.passwordSet ? ' ; mot de passe enregistré' : '';
  switch (result.action) {
    case 'created':
      console.log(`Administrateur créé : ${result.email}${password}.`);
      break;
    case 'promoted':
      console.log(`Compte existant promu administrateur : ${result.email}${password}.`);
      break;
    case 'already-admin':
      console.log(
        result.passwordSet
          ? `${result.email} était déjà administrateur ; mot de passe mis à jour.`
          : `${result.email} est déjà administrateur : rien à faire.`,
      );
      break;
  }
  console.log('Connexion : /login, puis /admin.');
}

function parse() {
  return parseArgs({
    options: {
      email: { type: 'string' },
      password: { type: 'string' },
      'first-name': { type: 'string' },
      'last-name': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
    allowPositionals: false,
  });
}

await main().catch(reportFailure);
