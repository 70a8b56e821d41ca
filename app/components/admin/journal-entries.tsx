import { Link } from 'react-router';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '~/components/ui/table';
import { auditSubjectLabel, describeAuditChange, formatAuditDate } from '~/domain/audit/describe';
import type { JournalEntry } from '~/domain/audit/journal-filters';
import { auditKindLabel, auditRoleLabel } from '~/domain/audit/kinds';

/*
 * The Journal's entries: a table on a wide screen, cards on a phone. Read-only by design (the
 * audit log cannot be edited or deleted): no action of any kind here.
 */

function Subject({ entry }: { entry: JournalEntry }) {
  if (entry.isOrder && entry.subjectLabel) {
    return (
      <Link className="font-medium text-primary underline" to={`/admin?commande=${entry.subject}`}>
        {entry.subjectLabel}
      </Link>
    );
  }
  return <span>{auditSubjectLabel(entry.subject, entry.subjectLabel)}</span>;
}

/** « Statut : En attente → En traitement », one line per field. */
function Changes({ entry }: { entry: JournalEntry }) {
  const lines = describeAuditChange(entry.kind, entry.before, entry.after);
  if (lines.length === 0) return <span className="text-muted-foreground">—</span>;
  return (
    <ul className="flex flex-col gap-0.5">
      {lines.map((line) => (
        <li key={line.label}>
          <span className="text-muted-foreground">{line.label}&#8239;: </span>
          {line.before !== null ? <>{line.before} → </> : null}
          <span className="font-medium">{line.after ?? '(supprimé)'}</span>
        </li>
      ))}
    </ul>
  );
}

function Person({ entry }: { entry: JournalEntry }) {
  return (
    <>
      <span className="font-medium">{entry.actorName}</span>
      <span className="block text-muted-foreground text-xs">{auditRoleLabel(entry.actorRole)}</span>
    </>
  );
}

export function JournalEntries({ entries }: { entries: JournalEntry[] }) {
  if (entries.length === 0) {
    return (
      <p className="rounded-lg border border-border bg-card p-6 text-center text-muted-foreground">
        Aucune action ne correspond à ces filtres.
      </p>
    );
  }
  return (
    <>
      <div className="hidden rounded-lg border border-border bg-card md:block">
        <Table aria-label="Journal des actions">
          <TableHeader>
            <TableRow>
              <TableHead>Date</TableHead>
              <TableHead>Personne</TableHead>
              <TableHead>Action</TableHead>
              <TableHead>Objet</TableHead>
              <TableHead>Avant → Après</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {entries.map((entry) => (
              <TableRow key={entry.id}>
                <TableCell className="whitespace-nowrap align-top">
                  <time dateTime={entry.at}>{formatAuditDate(entry.at)}</time>
                </TableCell>
                <TableCell className="align-top">
                  <Person entry={entry} />
                </TableCell>
                <TableCell className="align-top">{auditKindLabel(entry.kind)}</TableCell>
                <TableCell className="align-top">
                  <Subject entry={entry} />
                </TableCell>
                <TableCell className="whitespace-normal align-top">
                  <Changes entry={entry} />
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </div>
      <ul className="flex flex-col gap-3 md:hidden" aria-label="Journal des actions">
        {entries.map((entry) => (
          <li key={entry.id} className="rounded-lg border border-border bg-card p-4 text-sm">
            <div className="flex flex-wrap items-baseline justify-between gap-2">
              <span className="font-semibold">{auditKindLabel(entry.kind)}</span>
              <time className="text-muted-foreground" dateTime={entry.at}>
                {formatAuditDate(entry.at)}
              </time>
            </div>
            <div className="mt-1">
              <Subject entry={entry} /> · {entry.actorName}
            </div>
            <div className="mt-2">
              <Changes entry={entry} />
            </div>
          </li>
        ))}
      </ul>
    </>
  );
}
