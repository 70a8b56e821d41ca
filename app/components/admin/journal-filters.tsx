import { FilterIcon } from 'lucide-react';
import { Form, Link } from 'react-router';
import { Button } from '~/components/ui/button';
import { Input } from '~/components/ui/input';
import { Label } from '~/components/ui/label';
import { type JournalFilters, SYSTEM_PERSON } from '~/domain/audit/journal-filters';
import { AUDIT_KIND_LABELS, AUDIT_KINDS, SYSTEM_ACTOR_NAME } from '~/domain/audit/kinds';
import { NativeSelect } from './native-select';

/** The Journal's filters: a GET form (it works without JavaScript, and its address can be shared). */
export function JournalFiltersForm({
  filters,
  people,
}: {
  filters: JournalFilters;
  people: ReadonlyArray<{ id: string; name: string }>;
}) {
  const active = Boolean(filters.person || filters.kind || filters.from || filters.to);
  return (
    <Form method="get" className="rounded-lg border border-border bg-card p-4" aria-label="Filtrer le journal">
      <h2 className="mb-3 flex items-center gap-2 font-semibold text-base">
        <FilterIcon className="size-4" aria-hidden="true" />
        Filtres
      </h2>
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-4">
        <NativeSelect
          label="Personne"
          name="personne"
          defaultValue={filters.person ?? ''}
          options={[
            { value: '', label: 'Toutes les personnes' },
            ...people.map((p) => ({ value: p.id, label: p.name })),
            { value: SYSTEM_PERSON, label: SYSTEM_ACTOR_NAME },
          ]}
        />
        <NativeSelect
          label="Action"
          name="action"
          defaultValue={filters.kind ?? ''}
          options={[
            { value: '', label: 'Toutes les actions' },
            ...AUDIT_KINDS.map((kind) => ({ value: kind, label: AUDIT_KIND_LABELS[kind] })),
          ]}
        />
        <DayField label="Du" name="du" value={filters.from} />
        <DayField label="Au" name="au" value={filters.to} />
      </div>
      <div className="mt-3 flex items-end gap-2">
        <Button type="submit">Filtrer</Button>
        {active ? (
          <Button asChild variant="ghost">
            <Link to="?">Effacer</Link>
          </Button>
        ) : null}
      </div>
    </Form>
  );
}

function DayField({ label, name, value }: { label: string; name: string; value: string | null }) {
  const id = `journal-${name}`;
  return (
    <div className="flex flex-col gap-1.5">
      <Label htmlFor={id}>{label}</Label>
      <Input id={id} type="date" name={name} defaultValue={value ?? ''} />
    </div>
  );
}
