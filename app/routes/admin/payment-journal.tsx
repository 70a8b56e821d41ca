import { Link } from 'react-router';
import { TabError } from '~/components/admin/tab-error';
import { Button } from '~/components/ui/button';
import { Input } from '~/components/ui/input';
import { Label } from '~/components/ui/label';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '~/components/ui/table';
import { formatDateTimeFr, formatEurosFromCents, NBSP } from '~/domain/format';
import { requireStaff } from '~/server/admin/access.server';
import { defaultArchivePeriod } from '~/server/payment-journal/archive.server';
import { journalSummary } from '~/server/payment-journal/journal.server';
import { readJournalPublicKey } from '~/server/payment-journal/key.server';
import type { Route } from './+types/payment-journal';

/*
 * « Journal des paiements » (docs/payment-journal.md): the chain's head, the last days closed, the
 * shop's public key (its fingerprint is the attestation's), and the export of a period's signed
 * archive. A plain GET form: it works before (or without) JavaScript.
 */

export function meta() {
  return [{ title: 'Journal des paiements | Soovenirs' }, { name: 'robots', content: 'noindex, nofollow' }];
}

export async function loader({ request }: Route.LoaderArgs) {
  await requireStaff(request, 'exports');
  const [summary, key] = await Promise.all([journalSummary(), readJournalPublicKey()]);
  return { summary, key, period: defaultArchivePeriod(new Date()) };
}

export default function PaymentJournal({ loaderData }: Route.ComponentProps) {
  const { summary, key, period } = loaderData;
  return (
    <div className="flex flex-col gap-6">
      <section
        aria-labelledby="journal-paiements"
        className="flex flex-col gap-2 rounded-lg border border-border bg-card p-4"
      >
        <h2 id="journal-paiements" className="font-heading font-semibold text-xl">
          Journal des paiements
        </h2>
        <p className="text-muted-foreground text-sm">
          Chaque paiement reçu, virement ou chèque validé ou rejeté, et chaque remboursement est inscrit par la base de
          données dans un journal inaltérable, chaîné par empreintes SHA-256 et clôturé chaque jour, chaque mois et
          chaque année.
        </p>
        {summary.last ? (
          <p>
            {summary.entries} écriture{summary.entries > 1 ? 's' : ''}, la dernière le{' '}
            {formatDateTimeFr(summary.last.recordedAt)} (n°{NBSP}
            {summary.last.seq}, empreinte <code className="break-all text-xs">{summary.last.hash}</code>).
          </p>
        ) : (
          <p>Aucune écriture pour l’instant.</p>
        )}
      </section>

      <section
        aria-labelledby="archive-paiements"
        className="flex flex-col gap-3 rounded-lg border border-border bg-card p-4"
      >
        <h2 id="archive-paiements" className="font-heading font-semibold text-xl">
          Archive signée
        </h2>
        <form method="get" action="/admin/journal-paiements/archive" className="flex flex-wrap items-end gap-3">
          <div className="flex flex-col gap-1">
            <Label htmlFor="archive-du">Du</Label>
            <Input id="archive-du" name="from" type="date" defaultValue={period.from} required />
          </div>
          <div className="flex flex-col gap-1">
            <Label htmlFor="archive-au">Au</Label>
            <Input id="archive-au" name="to" type="date" defaultValue={period.to} required />
          </div>
          <Button type="submit">Exporter l’archive</Button>
        </form>
        <p className="text-muted-foreground text-sm">
          Un fichier JSON Lines signé (Ed25519) avec les écritures et les clôtures de la période. Exportez chaque mois
          clos et conservez les fichiers hors du serveur six ans. Vérification{NBSP}:{' '}
          <code>npm run journal:verify -- --archive FICHIER</code>.
        </p>
        {key ? (
          <p className="text-sm">
            Clé publique de la boutique (empreinte SHA-256, à reporter dans l’attestation de l’éditeur){NBSP}:{' '}
            <code className="break-all">{key.fingerprint}</code>
            <br />
            <span className="text-muted-foreground">
              Clé{NBSP}: <code className="break-all text-xs">{key.publicKey}</code>
            </span>
          </p>
        ) : (
          <p className="text-muted-foreground text-sm">
            La clé de signature de la boutique est créée au premier export.
          </p>
        )}
      </section>

      <section aria-labelledby="clotures" className="flex flex-col gap-2">
        <h2 id="clotures" className="font-heading font-semibold text-xl">
          Dernières clôtures journalières
        </h2>
        {summary.closures.length === 0 ? (
          <p className="text-muted-foreground text-sm">Aucun jour clôturé pour l’instant.</p>
        ) : (
          <Table>
            <TableHeader>
              <TableRow>
                <TableHead>Jour</TableHead>
                <TableHead className="text-right">Écritures</TableHead>
                <TableHead className="text-right">Encaissé</TableHead>
                <TableHead className="text-right">Remboursé</TableHead>
                <TableHead className="text-right">Total perpétuel</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {summary.closures.map((closure) => (
                <TableRow key={closure.periodKey}>
                  <TableCell>{closure.periodKey}</TableCell>
                  <TableCell className="text-right tabular-nums">{closure.entries}</TableCell>
                  <TableCell className="text-right tabular-nums">
                    {formatEurosFromCents(closure.receivedCents)}
                  </TableCell>
                  <TableCell className="text-right tabular-nums">
                    {formatEurosFromCents(closure.refundedCents)}
                  </TableCell>
                  <TableCell className="text-right tabular-nums">
                    {formatEurosFromCents(closure.perpetualCents)}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
        <Link to="/admin/comptabilite" className="w-fit text-primary text-sm underline">
          Retour à la comptabilité
        </Link>
      </section>
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <TabError error={error} />;
}
