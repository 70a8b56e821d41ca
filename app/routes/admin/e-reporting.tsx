import { Form, useNavigation } from 'react-router';
import { NativeSelect } from '~/components/admin/native-select';
import { TabError } from '~/components/admin/tab-error';
import { Alert } from '~/components/ui/alert';
import { Button } from '~/components/ui/button';
import { Input } from '~/components/ui/input';
import { Label } from '~/components/ui/label';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '~/components/ui/table';
import { isVatRegime, type ReportKind, VAT_REGIME_LABELS, VAT_REGIMES } from '~/domain/e-reporting/cadence';
import { formatDateFr, formatDateTimeFr, formatEurosFromCents } from '~/domain/format';
import { E_REPORTING_INTENTS } from '~/domain/staff/access-rules';
import { can } from '~/domain/staff/permissions';
import { requireIntent, requireStaff } from '~/server/admin/access.server';
import { configuredFlowSender } from '~/server/e-reporting/sender.server';
import { readEReportingSettings, saveEReportingSettings } from '~/server/e-reporting/settings.server';
import { listTransmissions, markDeposited, sendTransmission } from '~/server/e-reporting/transmissions.server';
import { readFormData } from '~/server/form-data.server';
import type { Route } from './+types/e-reporting';

/*
 * « E-reporting » (decision 051, docs/e-reporting.md): the transmissions of consumer sales and of
 * payments for services, one per period of the shop's VAT regime, with their status, their file,
 * « Envoyer » to the plateforme agréée and « Marquer comme déposé manuellement »; and the VAT
 * regime itself (a setting). Plain forms: the page works before (or without) its JavaScript.
 */

export function meta() {
  return [{ title: 'E-reporting | Soovenirs' }, { name: 'robots', content: 'noindex, nofollow' }];
}

export async function loader({ request }: Route.LoaderArgs) {
  const staff = await requireStaff(request, 'accounting');
  const [settings, transmissions, sender] = await Promise.all([
    readEReportingSettings(),
    listTransmissions(),
    configuredFlowSender(),
  ]);
  return {
    settings,
    transmissions,
    platformConfigured: sender !== null,
    canEditRegime: can(staff.role, 'settings'),
  };
}

type ActionData =
  | { ok: true; message: string }
  | { ok: false; message: string; fieldErrors?: { regime?: string; startDate?: string } };

const SEND_REFUSALS: Record<string, string> = {
  'no-platform':
    'Aucune plateforme agréée n’est configurée\u00a0: téléchargez le fichier et déposez-le sur votre plateforme, puis marquez-le comme déposé.',
  'not-found': 'Cette transmission n’existe pas.',
  busy: 'Cette transmission est en cours d’envoi\u00a0: rechargez la page dans un instant.',
  'already-done': 'Cette transmission a déjà été envoyée ou déposée.',
};

export async function action({ request }: Route.ActionArgs): Promise<ActionData> {
  const staff = await requireStaff(request, 'accounting');
  const form = await readFormData(request);
  const intent = form.get('intent');
  // The intent alone decides who may send it (domain/staff/access-rules.ts); unknown intents are refused.
  requireIntent(request, staff, E_REPORTING_INTENTS, intent);
  if (intent === 'regime') {
    const saved = await saveEReportingSettings(
      { regime: String(form.get('regime') ?? ''), startDate: String(form.get('startDate') ?? '') },
      staff.id,
    );
    return saved.ok
      ? { ok: true, message: 'Régime de TVA enregistré.' }
      : { ok: false, message: 'Veuillez corriger les champs signalés.', fieldErrors: saved.fieldErrors };
  }
  const id = String(form.get('id') ?? '');
  if (intent === 'mark-deposited') {
    const done = await markDeposited(id, staff.id);
    return done
      ? { ok: true, message: 'Transmission marquée comme déposée manuellement.' }
      : { ok: false, message: 'Cette transmission a déjà été envoyée ou déposée.' };
  }
  const result = await sendTransmission(id, await configuredFlowSender(), staff.id);
  if (result.ok) return { ok: true, message: `Transmission envoyée (flux ${result.flowId}).` };
  if (result.reason === 'failed')
    return { ok: false, message: `La plateforme a refusé ou n’a pas répondu\u00a0: ${result.error ?? ''}` };
  return { ok: false, message: SEND_REFUSALS[result.reason] ?? 'Envoi impossible.' };
}

const KIND_LABELS: Record<ReportKind, string> = {
  transactions: 'Ventes aux particuliers',
  payments: 'Paiements des services',
};

const STATUS_LABELS = {
  prepared: 'Préparée',
  sent: 'Envoyée',
  exported: 'À déposer',
  failed: 'Échec',
  deposited: 'Déposée manuellement',
} as const;

function StatusCell({ transmission }: { transmission: Route.ComponentProps['loaderData']['transmissions'][number] }) {
  return (
    <div className="flex flex-col gap-0.5">
      <span className="font-medium" data-testid="transmission-status">
        {STATUS_LABELS[transmission.status]}
      </span>
      {transmission.status === 'sent' && transmission.sentAt ? (
        <span className="text-muted-foreground text-xs">
          le {formatDateTimeFr(transmission.sentAt)}, flux {transmission.flowId}
        </span>
      ) : null}
      {transmission.status === 'deposited' && transmission.depositedAt ? (
        <span className="text-muted-foreground text-xs">le {formatDateTimeFr(transmission.depositedAt)}</span>
      ) : null}
      {transmission.status === 'failed' && transmission.lastError ? (
        <span className="text-danger text-xs">
          {transmission.attempts} essai{transmission.attempts > 1 ? 's' : ''} : {transmission.lastError}
        </span>
      ) : null}
    </div>
  );
}

export default function EReporting({ loaderData, actionData }: Route.ComponentProps) {
  const { settings, transmissions, platformConfigured, canEditRegime } = loaderData;
  const navigation = useNavigation();
  const busy = navigation.state !== 'idle';
  const errors = actionData && !actionData.ok ? (actionData.fieldErrors ?? {}) : {};
  const regimeOptions = [
    ...(settings.regime ? [] : [{ value: '', label: 'Choisir…' }]),
    ...VAT_REGIMES.map((regime) => ({ value: regime, label: VAT_REGIME_LABELS[regime] })),
  ];
  return (
    <div className="flex flex-col gap-5">
      <div>
        <h2 className="font-semibold text-xl">E-reporting</h2>
        <p className="text-muted-foreground text-sm">
          Les ventes aux particuliers (totaux par jour, par catégorie et par taux de TVA) et les paiements reçus pour
          des services, transmis à l’administration par la plateforme agréée au rythme du régime de TVA.
        </p>
      </div>
      {actionData ? <Alert variant={actionData.ok ? 'success' : 'danger'}>{actionData.message}</Alert> : null}
      {settings.regime ? null : (
        <Alert variant="warning">
          Aucun régime de TVA n’est choisi : aucune transmission n’est préparée.
          {canEditRegime ? '' : ' Demandez à un administrateur de le choisir.'}
        </Alert>
      )}
      {platformConfigured ? null : (
        <Alert variant="info">
          Aucune plateforme agréée n’est configurée : chaque transmission est préparée comme un fichier à télécharger et
          à déposer vous-même, puis à marquer comme déposé.
        </Alert>
      )}

      <section aria-labelledby="ereporting-regime-title" className="rounded-lg border border-border bg-card p-4">
        <h3 id="ereporting-regime-title" className="mb-3 font-semibold">
          Régime de TVA
        </h3>
        {canEditRegime ? (
          <Form method="post" className="flex flex-wrap items-end gap-4" noValidate>
            <input type="hidden" name="intent" value="regime" />
            <NativeSelect
              label="Régime"
              name="regime"
              options={regimeOptions}
              defaultValue={settings.regime ?? ''}
              className="min-w-64"
              aria-invalid={errors.regime ? true : undefined}
              aria-describedby={errors.regime ? 'ereporting-regime-error' : undefined}
            />
            <div className="flex flex-col gap-1.5">
              <Label htmlFor="ereporting-start">Premier jour à transmettre</Label>
              <Input
                id="ereporting-start"
                name="startDate"
                type="date"
                defaultValue={settings.startDate}
                aria-invalid={errors.startDate ? true : undefined}
                aria-describedby={errors.startDate ? 'ereporting-start-error' : undefined}
              />
            </div>
            <Button type="submit" disabled={busy}>
              Enregistrer
            </Button>
            {errors.regime ? (
              <p id="ereporting-regime-error" className="w-full text-danger text-sm">
                {errors.regime}
              </p>
            ) : null}
            {errors.startDate ? (
              <p id="ereporting-start-error" className="w-full text-danger text-sm">
                {errors.startDate}
              </p>
            ) : null}
          </Form>
        ) : (
          <p className="text-sm" data-testid="ereporting-regime">
            {settings.regime && isVatRegime(settings.regime) ? VAT_REGIME_LABELS[settings.regime] : 'Non choisi'}, à
            partir du {formatDateFr(`${settings.startDate}T12:00:00Z`)}.
          </p>
        )}
      </section>

      {transmissions.length === 0 ? (
        <p className="text-muted-foreground text-sm">Aucune transmission pour l’instant.</p>
      ) : (
        <div className="overflow-x-auto">
          <Table aria-label="Transmissions e-reporting">
            <TableHeader>
              <TableRow>
                <TableHead>Période</TableHead>
                <TableHead>Données</TableHead>
                <TableHead className="text-right">HT</TableHead>
                <TableHead className="text-right">TVA</TableHead>
                <TableHead className="text-right">TTC</TableHead>
                <TableHead>Échéance</TableHead>
                <TableHead>Statut</TableHead>
                <TableHead>Actions</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {transmissions.map((transmission) => {
                const open = transmission.status !== 'sent' && transmission.status !== 'deposited';
                const period = `du ${formatDateFr(`${transmission.periodStart}T12:00:00Z`)} au ${formatDateFr(`${transmission.periodEnd}T12:00:00Z`)}`;
                return (
                  <TableRow key={transmission.id} data-testid="transmission-row" data-file={transmission.fileName}>
                    <TableCell>{period}</TableCell>
                    <TableCell>{KIND_LABELS[transmission.kind]}</TableCell>
                    <TableCell className="text-right tabular-nums">
                      {formatEurosFromCents(transmission.excludingVatCents)}
                    </TableCell>
                    <TableCell className="text-right tabular-nums">
                      {formatEurosFromCents(transmission.vatCents)}
                    </TableCell>
                    <TableCell className="text-right tabular-nums">
                      {formatEurosFromCents(transmission.totalCents)}
                    </TableCell>
                    <TableCell>{formatDateFr(`${transmission.deadline}T12:00:00Z`)}</TableCell>
                    <TableCell>
                      <StatusCell transmission={transmission} />
                    </TableCell>
                    <TableCell>
                      <div className="flex flex-wrap items-center gap-2">
                        <a
                          className="text-primary text-sm underline underline-offset-4"
                          href={`/admin/e-reporting/${transmission.id}/fichier`}
                          download={transmission.fileName}
                        >
                          Télécharger<span className="sr-only"> le fichier {transmission.fileName}</span>
                        </a>
                        {open ? (
                          <>
                            <Form method="post">
                              <input type="hidden" name="id" value={transmission.id} />
                              <Button type="submit" name="intent" value="send" size="sm" disabled={busy}>
                                Envoyer
                              </Button>
                            </Form>
                            <Form method="post">
                              <input type="hidden" name="id" value={transmission.id} />
                              <Button
                                type="submit"
                                name="intent"
                                value="mark-deposited"
                                size="sm"
                                variant="outline"
                                disabled={busy}
                              >
                                Marquer comme déposé manuellement
                              </Button>
                            </Form>
                          </>
                        ) : null}
                      </div>
                    </TableCell>
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        </div>
      )}
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <TabError error={error} />;
}
