import { RotateCcwIcon, SaveIcon } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useFetcher } from 'react-router';
import { Button } from '~/components/ui/button';
import { Input } from '~/components/ui/input';
import { Label } from '~/components/ui/label';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '~/components/ui/tabs';
import { toast } from '~/components/ui/toaster';
import {
  fieldValue,
  MIN_EUROS,
  MIN_MULTIPLIER,
  PRICE_STEP,
  type PriceField,
  priceTabs,
  sanitiseEntry,
} from '~/domain/admin/price-form';
import { formatDateTimeFr } from '~/domain/format';
import type { PriceListDocument } from '~/domain/pricing/default-price-list';

export type PricingActionData =
  | { ok: true; intent: 'update' | 'reset'; version: number; ignored: string[] }
  | { ok: false; error: string; errors: Record<string, string> };

function PriceInput({ field, initial, error }: { field: PriceField; initial: string; error: string | undefined }) {
  const [value, setValue] = useState(initial);
  useEffect(() => setValue(initial), [initial]);
  const id = `tarif-${field.name.replace(/\./g, '-')}`;
  return (
    <div className="flex flex-col gap-1.5">
      <Label htmlFor={id}>{field.label}</Label>
      <div className="flex items-center gap-2">
        <Input
          id={id}
          name={field.name}
          type="number"
          inputMode="decimal"
          min={field.kind === 'euros' ? MIN_EUROS : MIN_MULTIPLIER}
          step={PRICE_STEP}
          value={value}
          // The specification: non-numeric entries are ignored (the field keeps its value).
          onChange={(e) => setValue((previous) => sanitiseEntry(previous, e.target.value))}
          aria-invalid={error ? true : undefined}
          aria-describedby={`${id}-unit${error ? ` ${id}-error` : ''}`}
          className="max-w-36 text-right tabular-nums"
          required
        />
        <span id={`${id}-unit`} className="text-muted-foreground text-sm">
          {field.kind === 'euros' ? `€ ${field.suffix}` : field.suffix}
        </span>
      </div>
      {error ? (
        <p id={`${id}-error`} className="text-destructive text-sm">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/**
 * The Tarifs tab: every price of the active price list in sub-tabs; "Mettre à jour" publishes a new
 * version (used at once by the site), "Réinitialiser" publishes the defaults again.
 */
export function PriceEditor({
  list,
  version,
  updatedAt,
}: {
  list: PriceListDocument;
  version: number;
  updatedAt: string;
}) {
  const fetcher = useFetcher<PricingActionData>();
  const handled = useRef<unknown>(null);
  const tabs = priceTabs(list);
  const [tab, setTab] = useState<string>('supports');
  const result = fetcher.data;
  const errors = result && !result.ok ? result.errors : {};

  useEffect(() => {
    if (fetcher.state !== 'idle' || !result || handled.current === result) return;
    handled.current = result;
    if (result.ok) {
      toast.success(result.intent === 'reset' ? 'Tarifs réinitialisés' : 'Tarifs mis à jour', {
        description: `Grille tarifaire version ${result.version}, appliquée immédiatement sur le site.`,
      });
      if (result.ignored.length > 0) toast.info(`${result.ignored.length} valeur(s) non numérique(s) ignorée(s)`);
    } else {
      toast.error(result.error);
      const first = tabs.find((t) => t.fields.some((f) => result.errors[f.name]));
      if (first) setTab(first.id);
    }
  }, [fetcher.state, result, tabs]);

  return (
    <fetcher.Form method="post" className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div>
          <h2 className="font-heading font-semibold text-xl">Tarifs</h2>
          <p className="text-muted-foreground text-sm">
            Grille tarifaire en vigueur : version {version}, mise à jour le {formatDateTimeFr(updatedAt)}
          </p>
        </div>
        <div className="flex gap-2">
          <Button
            type="submit"
            name="intent"
            value="reset"
            variant="outline"
            formNoValidate
            disabled={fetcher.state !== 'idle'}
          >
            <RotateCcwIcon aria-hidden="true" />
            Réinitialiser
          </Button>
          <Button type="submit" name="intent" value="update" disabled={fetcher.state !== 'idle'}>
            <SaveIcon aria-hidden="true" />
            {fetcher.state !== 'idle' ? 'Publication…' : 'Mettre à jour'}
          </Button>
        </div>
      </div>
      <Tabs value={tab} onValueChange={setTab}>
        <TabsList aria-label="Catégories de tarifs">
          {tabs.map((t) => (
            <TabsTrigger key={t.id} value={t.id}>
              {t.label}
            </TabsTrigger>
          ))}
        </TabsList>
        {tabs.map((t) => (
          // Every sub-tab stays in the form (hidden when inactive), so that one submit sends all the prices.
          <TabsContent
            key={t.id}
            value={t.id}
            forceMount
            className="rounded-lg border border-border bg-card p-4 data-[state=inactive]:hidden"
          >
            <p className="mb-4 text-muted-foreground text-sm">{t.description}</p>
            <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
              {t.fields.map((field) => (
                <PriceInput
                  key={`${version}-${field.name}`}
                  field={field}
                  initial={fieldValue(list, field)}
                  error={errors[field.name]}
                />
              ))}
            </div>
          </TabsContent>
        ))}
      </Tabs>
    </fetcher.Form>
  );
}
