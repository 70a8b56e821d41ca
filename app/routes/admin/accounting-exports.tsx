import { data, Form, useNavigation } from 'react-router';
import { TabError } from '~/components/admin/tab-error';
import { Alert } from '~/components/ui/alert';
import { Button } from '~/components/ui/button';
import { Card, CardContent, CardHeader } from '~/components/ui/card';
import { Input } from '~/components/ui/input';
import { Label } from '~/components/ui/label';
import {
  ACCOUNT_HINTS,
  ACCOUNT_KEYS,
  ACCOUNT_LABELS,
  ACCOUNTING_MESSAGES,
  type AccountingFieldErrors,
  JOURNAL_KEYS,
  JOURNAL_LABELS,
} from '~/domain/accounting/accounts';
import { ACCOUNTING_FILE_LABELS, ACCOUNTING_FILES } from '~/domain/accounting/export-request';
import { can } from '~/domain/staff/permissions';
import { EXPORT_ERROR_COOKIE, expiredCookie, readCookie } from '~/server/account/cookies.server';
import { readAccountingSettings, saveAccountingSettings } from '~/server/accounting/accounting-settings.server';
import { requireStaff } from '~/server/admin/access.server';
import { readFormData } from '~/server/form-data.server';
import type { Route } from './+types/accounting-exports';

/*
 * « Exports comptables » (docs/accounting-exports.md): the accounts and journal codes the
 * accounting exports write (a setting of the accountant's), and the downloads: the FEC, the journal
 * in entries (CSV), the Chorus Pro ZIP, for a month, a year or two dates. Plain forms: the page works
 * before (or without) its JavaScript.
 */

export function meta() {
  return [{ title: 'Exports comptables | Soovenirs' }, { name: 'robots', content: 'noindex, nofollow' }];
}

export async function loader({ request }: Route.LoaderArgs) {
  const staff = await requireStaff(request, 'accounting');
  const settings = await readAccountingSettings();
  const today = new Date();
  // The month just closed: what the accountant asks for most often.
  const previous = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() - 1, 1));
  // The refusal of the export just asked for (accounting-export.ts), shown once.
  const error = readCookie(request, EXPORT_ERROR_COOKIE);
  return data(
    {
      settings,
      canExport: can(staff.role, 'exports'),
      error,
      defaultMonth: previous.toISOString().slice(0, 7),
      defaultYear: String(previous.getUTCFullYear()),
    },
    error === null ? undefined : { headers: { 'Set-Cookie': expiredCookie(EXPORT_ERROR_COOKIE) } },
  );
}

type ActionData =
  | { ok: true; message: string }
  | { ok: false; fieldErrors: AccountingFieldErrors; values: Record<string, string> };

export async function action({ request }: Route.ActionArgs): Promise<ActionData> {
  const staff = await requireStaff(request, 'accounting');
  const form = await readFormData(request);
  const input = Object.fromEntries([...ACCOUNT_KEYS, ...JOURNAL_KEYS].map((key) => [key, form.get(key) ?? '']));
  const result = await saveAccountingSettings(input, staff.id);
  if (!result.ok) return { ok: false, fieldErrors: result.fieldErrors, values: result.values };
  return { ok: true, message: ACCOUNTING_MESSAGES.saved };
}

function Field({
  name,
  label,
  hint,
  value,
  error,
}: {
  name: string;
  label: string;
  hint: string;
  value: string;
  error?: string;
}) {
  const id = `compte-${name}`;
  return (
    <div className="flex flex-col gap-1.5">
      <Label htmlFor={id}>{label}</Label>
      <Input
        id={id}
        name={name}
        defaultValue={value}
        key={value}
        inputMode={name.endsWith('Journal') ? 'text' : 'numeric'}
        autoComplete="off"
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-erreur` : `${id}-aide`}
      />
      {error ? (
        <p id={`${id}-erreur`} className="text-danger text-sm">
          {error}
        </p>
      ) : (
        <p id={`${id}-aide`} className="text-muted-foreground text-xs">
          {hint}
        </p>
      )}
    </div>
  );
}

export default function AccountingExports({ loaderData, actionData }: Route.ComponentProps) {
  const { settings, canExport, error, defaultMonth, defaultYear } = loaderData;
  const busy = useNavigation().state !== 'idle';
  const failed = actionData && !actionData.ok ? actionData : null;
  const value = (key: keyof typeof settings) => failed?.values[key] ?? settings[key];
  return (
    <div className="flex flex-col gap-5">
      {canExport ? (
        <Card>
          <CardHeader>
            <h2 className="font-semibold text-lg">Télécharger</h2>
          </CardHeader>
          <CardContent className="flex flex-col gap-4">
            <p className="text-sm">
              Le FEC reprend chaque facture, avoir, encaissement et remboursement de la période en écritures
              équilibrées, au format de l’article A47 A-1 du livre des procédures fiscales. Les documents de
              démonstration n’y figurent jamais.
            </p>
            {error ? <Alert variant="danger">{error}</Alert> : null}
            <Form method="get" action="/admin/export-comptable" reloadDocument className="flex flex-col gap-4">
              <fieldset className="flex flex-col gap-2">
                <legend className="mb-1 font-medium text-sm">Fichier</legend>
                {ACCOUNTING_FILES.map((file, index) => (
                  <label key={file} className="flex items-center gap-2 text-sm">
                    <input type="radio" name="fichier" value={file} defaultChecked={index === 0} />
                    {ACCOUNTING_FILE_LABELS[file]}
                  </label>
                ))}
              </fieldset>
              <fieldset className="flex flex-col gap-3">
                <legend className="mb-1 font-medium text-sm">Période</legend>
                <div className="flex flex-wrap items-center gap-2 text-sm">
                  <input type="radio" id="periode-mois" name="periode" value="mois" defaultChecked />
                  <Label htmlFor="periode-mois">Mois</Label>
                  <Input
                    type="month"
                    name="mois"
                    aria-label="Mois (AAAA-MM)"
                    defaultValue={defaultMonth}
                    className="w-44"
                  />
                </div>
                <div className="flex flex-wrap items-center gap-2 text-sm">
                  <input type="radio" id="periode-annee" name="periode" value="annee" />
                  <Label htmlFor="periode-annee">Année</Label>
                  <Input
                    type="number"
                    name="annee"
                    aria-label="Année"
                    min={2020}
                    max={2100}
                    defaultValue={defaultYear}
                    className="w-28"
                  />
                </div>
                <div className="flex flex-wrap items-center gap-2 text-sm">
                  <input type="radio" id="periode-dates" name="periode" value="dates" />
                  <Label htmlFor="periode-dates">Du</Label>
                  <Input type="date" name="du" aria-label="Du (premier jour)" className="w-44" />
                  <span aria-hidden="true">au</span>
                  <Input type="date" name="au" aria-label="Au (dernier jour, date de clôture)" className="w-44" />
                </div>
              </fieldset>
              <Button type="submit" className="w-fit">
                Télécharger
              </Button>
            </Form>
          </CardContent>
        </Card>
      ) : null}

      <Card>
        <CardHeader>
          <h2 className="font-semibold text-lg">Comptes et journaux</h2>
        </CardHeader>
        <CardContent className="flex flex-col gap-4">
          <p className="text-sm">
            Les numéros de compte du plan comptable de votre cabinet (chiffres seulement). Par défaut, ceux du Plan
            comptable général.
          </p>
          {actionData?.ok ? <Alert variant="success">{actionData.message}</Alert> : null}
          {failed ? <Alert variant="danger">Veuillez corriger les champs signalés.</Alert> : null}
          <Form method="post" className="flex flex-col gap-4" noValidate>
            <div className="grid gap-4 sm:grid-cols-2">
              {ACCOUNT_KEYS.map((key) => (
                <Field
                  key={key}
                  name={key}
                  label={ACCOUNT_LABELS[key]}
                  hint={ACCOUNT_HINTS[key]}
                  value={value(key)}
                  error={failed?.fieldErrors[key]}
                />
              ))}
              {JOURNAL_KEYS.map((key) => (
                <Field
                  key={key}
                  name={key}
                  label={`Code du ${JOURNAL_LABELS[key].toLowerCase()}`}
                  hint={ACCOUNT_HINTS[key]}
                  value={value(key)}
                  error={failed?.fieldErrors[key]}
                />
              ))}
            </div>
            <Button type="submit" className="w-fit" disabled={busy}>
              Enregistrer les comptes
            </Button>
          </Form>
        </CardContent>
      </Card>
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <TabError error={error} />;
}
