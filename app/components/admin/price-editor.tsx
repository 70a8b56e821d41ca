import { FormProvider, getFormProps, type SubmissionResult, useField, useForm } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod/v4';
import { RotateCcwIcon, SaveIcon } from 'lucide-react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Form, Link, useFetcher } from 'react-router';
import { SelectField, UnitField } from '~/components/forms/field';
import { Button } from '~/components/ui/button';
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '~/components/ui/dialog';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '~/components/ui/tabs';
import { toast } from '~/components/ui/toaster';
import { useHydrated } from '~/components/use-hydrated';
import {
  CONFIRMATION_FIELDS,
  createPriceFormSchema,
  largeChangeSentence,
  PRICE_FORM_MESSAGES,
  type PriceChange,
  type PriceField,
  type PriceFormEntries,
  type PriceFormValue,
  type PriceTab,
  priceChanges,
  priceFormDefaults,
  priceTabs,
} from '~/domain/admin/price-form';
import { formatDateTimeFr, NBSP } from '~/domain/format';
import { DEFAULT_PRICE_LIST, type PriceListDocument } from '~/domain/pricing/default-price-list';

/**
 * What a post that needs a confirmation gets back, for a browser without JavaScript: the changes
 * the dialog would have shown, the entries to post again, and the version they were computed on.
 */
export type PricingReview = {
  kind: 'update' | 'reset';
  /** `large`: the second confirmation of a change beyond ×3 or ÷3. */
  step: 'summary' | 'large';
  changes: PriceChange[];
  entries: Record<string, string>;
  baseVersion: number;
};

export type PricingActionData =
  | { ok: true; intent: 'update' | 'reset'; version: number }
  | { ok: false; error: string; submission?: SubmissionResult<string[]>; review?: PricingReview };

const PRICE_FORM_ID = 'tarifs';
const RESET_FORM_ID = 'tarifs-reinitialiser';
/** The sub-tabs' root, shown as plain sections by the <noscript> style. */
const NO_SCRIPT_SECTIONS = 'tarifs-sections';

/**
 * One price, bound to its Conform field by name. A text field, not type="number": Chromium's
 * number field drops a decimal comma (« 0,39 » became 39). Every entry is read by the domain's
 * parsePriceEntry, in the browser and on the server.
 */
function PriceInput({ field }: { field: PriceField }) {
  const [meta] = useField<string>(field.name);
  if (field.kind === 'flag') {
    // A yes/no entry (« preview and keep » per support): a choice always posted, unlike a checkbox.
    return (
      <SelectField
        meta={meta}
        label={`${field.label} (${field.suffix})`}
        options={[
          { value: '1', label: 'Oui' },
          { value: '0', label: 'Non' },
        ]}
        className="max-w-xs"
      />
    );
  }
  return (
    <UnitField
      meta={meta}
      label={field.label}
      unit={field.kind === 'euros' ? `€ ${field.suffix}` : field.suffix}
      inputMode={field.kind === 'days' || field.kind === 'months' ? 'numeric' : 'decimal'}
      autoComplete="off"
      spellCheck={false}
    />
  );
}

/** The posted text entries, as the dialog posts them again once confirmed. */
function textEntries(formData: FormData): Record<string, string> {
  const entries: Record<string, string> = {};
  for (const [name, value] of formData) if (typeof value === 'string') entries[name] = value;
  return entries;
}

/**
 * The prices, in sub-tabs, validated with the domain's schema in the browser (the summary needs
 * the parsed list) and again on the server. Mounted once per version of the list, so that a newly
 * published list shows its own values. Without JavaScript the sub-tabs cannot be switched: every
 * section is shown, one under the other with its title (<noscript>: a browser running scripts never
 * lays them out, so the tabs do not jump while the page hydrates), and the form posts as any form.
 */
function PriceForm({
  list,
  version,
  tabs,
  tab,
  onTabChange,
  lastResult,
  onRefused,
  onValid,
}: {
  list: PriceListDocument;
  version: number;
  tabs: PriceTab[];
  tab: string;
  onTabChange: (tab: string) => void;
  lastResult: SubmissionResult<string[]> | undefined;
  onRefused: (names: string[]) => void;
  onValid: (entries: Record<string, string>, document: PriceListDocument) => void;
}) {
  const schema = useMemo(() => createPriceFormSchema(list), [list]);
  const [form] = useForm<PriceFormEntries, PriceFormValue>({
    id: PRICE_FORM_ID,
    lastResult,
    defaultValue: priceFormDefaults(list),
    // A field being corrected drops its message as soon as its entry is right; the others keep theirs.
    shouldRevalidate: 'onInput',
    onValidate({ formData }) {
      // An empty entry is refused, not taken as "not sent": no coercion.
      const submission = parseWithZod(formData, { schema, disableAutoCoercion: true });
      // « Mettre à jour » refused (not a re-check while typing): say so, and show the first refused field.
      if (submission.status === 'error') onRefused(Object.keys(submission.error ?? {}));
      return submission;
    },
    onSubmit(event, { formData, submission }) {
      // The summary comes first: the dialog posts once confirmed (the server refuses an unconfirmed post).
      event.preventDefault();
      if (submission?.status === 'success') onValid(textEntries(formData), submission.value.document);
    },
  });
  return (
    <FormProvider context={form.context}>
      <form method="post" {...getFormProps(form)}>
        <input type="hidden" name="baseVersion" value={version} />
        <noscript>
          <style>{`.${NO_SCRIPT_SECTIONS} [role='tablist']{display:none}.${NO_SCRIPT_SECTIONS} [role='tabpanel']{display:block!important}`}</style>
        </noscript>
        <Tabs value={tab} onValueChange={onTabChange} className={NO_SCRIPT_SECTIONS}>
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
              <noscript>
                <h3 className="mb-2 font-heading font-semibold text-lg">{t.label}</h3>
              </noscript>
              <p className="mb-4 text-muted-foreground text-sm">{t.description}</p>
              <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
                {t.fields.map((field) => (
                  <PriceInput key={field.name} field={field} />
                ))}
              </div>
            </TabsContent>
          ))}
        </Tabs>
      </form>
    </FormProvider>
  );
}

/** The changes, one line each: `Supports — Photos papier   0,35 € → 0,39 €   +11,4 %`. */
function ChangeList({ changes }: { changes: PriceChange[] }) {
  return (
    <ul className="flex max-h-72 flex-col divide-y divide-border overflow-y-auto rounded-md border border-border text-sm">
      {changes.map((change) => (
        <li key={change.name} className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 px-3 py-2">
          <span>
            <span className="text-muted-foreground">{change.section} — </span>
            <span className="font-medium">{change.label}</span>
          </span>
          <span className="tabular-nums">
            {change.beforeText} → <strong>{change.afterText}</strong>{' '}
            <span className={change.large ? 'font-semibold text-destructive' : 'text-muted-foreground'}>
              ({change.changeText})
            </span>
          </span>
        </li>
      ))}
    </ul>
  );
}

type Review =
  | { kind: 'update'; step: 'summary' | 'large'; entries: Record<string, string>; changes: PriceChange[] }
  | { kind: 'reset'; changes: PriceChange[] };

const plural = (n: number, one: string, many: string) => `${n}${NBSP}${n > 1 ? many : one}`;

/**
 * Without JavaScript, the summary and each confirmation are the server's answer to a post: the same
 * changes as the dialog's, and a form that posts the same entries again with the confirmation the
 * dialog would have added (the server decides again). « Annuler » shows the prices in force again.
 */
function PageReview({ review }: { review: PricingReview }) {
  const large = review.changes.filter((c) => c.large);
  const title =
    review.kind === 'reset'
      ? `Réinitialiser les tarifs${NBSP}?`
      : review.step === 'large'
        ? 'Changement important'
        : `Publier les nouveaux tarifs${NBSP}?`;
  return (
    <section
      aria-labelledby="tarifs-review-title"
      className="flex flex-col gap-3 rounded-lg border border-primary/40 bg-card p-4"
    >
      <h3 id="tarifs-review-title" className="font-heading font-semibold text-lg">
        {title}
      </h3>
      {review.kind === 'reset' ? (
        <>
          <p className="text-sm">
            Tous les prix reviennent aux tarifs par défaut de la boutique, appliqués immédiatement sur le site. Les
            commandes déjà passées gardent leurs prix.
          </p>
          {review.changes.length > 0 ? <ChangeList changes={review.changes} /> : null}
        </>
      ) : review.step === 'large' ? (
        <>
          <p className="text-sm">
            {large.length > 1
              ? `${large.length}${NBSP}tarifs changent de plus de ×3 ou ÷3, ce qui ressemble à une erreur de saisie.`
              : 'Ce tarif change de plus de ×3 ou ÷3, ce qui ressemble à une erreur de saisie.'}
          </p>
          <ul className="flex flex-col gap-2 text-sm">
            {large.map((change) => (
              <li key={change.name}>{largeChangeSentence(change)}</li>
            ))}
          </ul>
          <p className="font-medium text-sm">Confirmer quand même{NBSP}?</p>
        </>
      ) : (
        <>
          <p className="text-sm">
            {`${plural(review.changes.length, 'tarif modifié', 'tarifs modifiés')}${NBSP}; la nouvelle grille s’applique immédiatement sur le site une fois publiée.`}
          </p>
          <ChangeList changes={review.changes} />
        </>
      )}
      <Form method="post" className="flex flex-wrap justify-end gap-2">
        {Object.entries(review.entries).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <input type="hidden" name="baseVersion" value={review.baseVersion} />
        <input type="hidden" name={CONFIRMATION_FIELDS.confirmed} value="1" />
        {review.step === 'large' ? (
          <input type="hidden" name={CONFIRMATION_FIELDS.confirmedLargeChange} value="1" />
        ) : null}
        <Button asChild variant="outline">
          <Link to=".">Annuler</Link>
        </Button>
        <Button
          type="submit"
          name="intent"
          value={review.kind}
          variant={review.kind === 'reset' || review.step === 'large' ? 'destructive' : 'default'}
        >
          {review.kind === 'reset'
            ? 'Réinitialiser les tarifs'
            : review.step === 'large'
              ? 'Confirmer et publier'
              : 'Publier les nouveaux tarifs'}
        </Button>
      </Form>
    </section>
  );
}

/** The answer to a post made without JavaScript: published, or refused with its reason. */
function PageOutcome({ result }: { result: PricingActionData }) {
  if (result.ok) {
    return (
      <p role="status" className="rounded-md border border-border bg-card p-3 text-sm">
        <strong>{result.intent === 'reset' ? 'Tarifs réinitialisés' : 'Tarifs mis à jour'}</strong>
        {NBSP}: grille tarifaire version {result.version}, appliquée immédiatement sur le site.
      </p>
    );
  }
  if (result.review) return <PageReview review={result.review} />;
  return (
    <p role="alert" className="rounded-md border border-destructive/40 bg-destructive/5 p-3 text-destructive text-sm">
      {result.error}
    </p>
  );
}

/**
 * The Tarifs tab: every price of the active price list in sub-tabs. « Mettre à jour » checks the
 * entries, shows the summary of the changes and publishes a new version (used at once by the
 * site) only once confirmed — twice when an entry changes beyond ×3 or ÷3, which is most likely a
 * typo. « Réinitialiser » publishes the defaults again, after a confirmation too.
 */
export function PriceEditor({
  list,
  version,
  updatedAt,
  pageResult,
}: {
  list: PriceListDocument;
  version: number;
  updatedAt: string;
  /** The answer to a post made without JavaScript (the page's action data). */
  pageResult?: PricingActionData | undefined;
}) {
  const fetcher = useFetcher<PricingActionData>();
  const handled = useRef<unknown>(null);
  const updateButton = useRef<HTMLButtonElement>(null);
  const resetButton = useRef<HTMLButtonElement>(null);
  /** Where the focus goes back when the dialog closes: the button that opened it. */
  const opener = useRef<HTMLButtonElement | null>(null);
  const tabs = priceTabs(list);
  const [tab, setTab] = useState<string>('supports');
  const [review, setReview] = useState<Review | null>(null);
  const [focusField, setFocusField] = useState<string | null>(null);
  const result = fetcher.data;
  /** The last answer: the fetcher's, or the page's own after a post made without JavaScript. */
  const answer = result ?? pageResult;
  const hydrated = useHydrated();
  const busy = fetcher.state !== 'idle';
  // Read by the dialog's close handler, which runs after the state changed.
  const reviewing = useRef(false);
  reviewing.current = review !== null;

  /** Shows the sub-tab of the first refused field and puts the focus in it. */
  function showFirstError(names: string[]) {
    const first = tabs
      .flatMap((t) => t.fields.map((f) => [t.id, f.name] as const))
      .find(([, name]) => names.includes(name));
    if (!first) return;
    setTab(first[0]);
    setFocusField(first[1]);
  }

  useEffect(() => {
    // The field is visible once its sub-tab rendered: focus it then.
    if (!focusField) return;
    const form = document.getElementById(PRICE_FORM_ID) as HTMLFormElement | null;
    const input = form?.elements.namedItem(focusField);
    if (input instanceof HTMLInputElement) input.focus();
    setFocusField(null);
  }, [focusField]);

  useEffect(() => {
    if (fetcher.state !== 'idle' || !result || handled.current === result) return;
    handled.current = result;
    if (result.ok) {
      toast.success(result.intent === 'reset' ? 'Tarifs réinitialisés' : 'Tarifs mis à jour', {
        description: `Grille tarifaire version ${result.version}, appliquée immédiatement sur le site.`,
      });
    } else {
      toast.error(result.error);
    }
    // The opener was disabled while publishing: the focus comes back to it now, or to a refused field.
    const refused = result.ok ? [] : Object.keys(result.submission?.error ?? {});
    if (refused.length > 0) showFirstError(refused);
    else opener.current?.focus();
  });

  function refuse(names: string[]) {
    toast.error(PRICE_FORM_MESSAGES.invalid);
    showFirstError(names);
  }

  function summarise(entries: Record<string, string>, document: PriceListDocument) {
    const changes = priceChanges(list, document);
    if (changes.length === 0) {
      toast.info(PRICE_FORM_MESSAGES.unchanged);
      return;
    }
    opener.current = updateButton.current;
    setReview({ kind: 'update', step: 'summary', entries, changes });
  }

  function publish(fields: Record<string, string>) {
    setReview(null);
    fetcher.submit({ ...fields, baseVersion: String(version) }, { method: 'post' });
  }

  function confirmUpdate() {
    if (review?.kind !== 'update') return;
    if (review.step === 'summary' && review.changes.some((c) => c.large)) {
      setReview({ ...review, step: 'large' });
      return;
    }
    publish({
      ...review.entries,
      intent: 'update',
      [CONFIRMATION_FIELDS.confirmed]: '1',
      ...(review.step === 'large' ? { [CONFIRMATION_FIELDS.confirmedLargeChange]: '1' } : {}),
    });
  }

  const large = review?.kind === 'update' ? review.changes.filter((c) => c.large) : [];

  return (
    <>
      <div className="flex flex-col gap-4">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <div>
            <h2 className="font-heading font-semibold text-xl">Tarifs</h2>
            <p className="text-muted-foreground text-sm">
              Grille tarifaire en vigueur{NBSP}: version {version}, mise à jour le {formatDateTimeFr(updatedAt)}
            </p>
          </div>
          <div className="flex gap-2">
            {/* Without JavaScript, « Réinitialiser » posts its own form: the server asks for the confirmation. */}
            <Button
              ref={resetButton}
              type={hydrated ? 'button' : 'submit'}
              form={RESET_FORM_ID}
              name="intent"
              value="reset"
              variant="outline"
              disabled={busy}
              onClick={() => {
                opener.current = resetButton.current;
                setReview({ kind: 'reset', changes: priceChanges(list, DEFAULT_PRICE_LIST) });
              }}
            >
              <RotateCcwIcon aria-hidden="true" />
              Réinitialiser
            </Button>
            {/* The form's submit button, outside it: it stays (and keeps the focus) when a new version remounts the form. */}
            <Button ref={updateButton} type="submit" form={PRICE_FORM_ID} name="intent" value="update" disabled={busy}>
              <SaveIcon aria-hidden="true" />
              {busy ? 'Publication…' : 'Mettre à jour'}
            </Button>
          </div>
        </div>
        <Form method="post" id={RESET_FORM_ID} className="hidden">
          <input type="hidden" name="baseVersion" value={version} />
        </Form>
        {/* Only the page's own answer: with JavaScript, posts go through the fetcher and its toasts. */}
        {pageResult && !result ? <PageOutcome result={pageResult} /> : null}
        <PriceForm
          key={version}
          list={list}
          version={version}
          tabs={tabs}
          tab={tab}
          onTabChange={setTab}
          lastResult={answer && !answer.ok ? answer.submission : undefined}
          onRefused={refuse}
          onValid={summarise}
        />
      </div>

      {/* Outside the form: its buttons are no part of what the form posts. */}
      <Dialog open={review !== null} onOpenChange={(open) => (open ? undefined : setReview(null))}>
        {review ? (
          <DialogContent
            // One content per step: the second confirmation is a new dialog content, announced and
            // focused as such (its first button, « Annuler », the safe choice).
            key={review.kind === 'update' ? review.step : 'reset'}
            hideClose
            onCloseAutoFocus={(event) => {
              // No Dialog.Trigger here (the buttons check the form first): the focus goes back to the
              // button that opened the dialog, but not while moving from one step to the next (the
              // next step's content takes it).
              event.preventDefault();
              if (!reviewing.current) opener.current?.focus();
            }}
          >
            {review.kind === 'reset' ? (
              <>
                <DialogHeader>
                  <DialogTitle>Réinitialiser les tarifs{NBSP}?</DialogTitle>
                  <DialogDescription>
                    Tous les prix reviennent aux tarifs par défaut de la boutique, appliqués immédiatement sur le site.
                    Les commandes déjà passées gardent leurs prix.
                  </DialogDescription>
                </DialogHeader>
                {review.changes.length > 0 ? (
                  <>
                    <p className="text-sm">
                      {plural(review.changes.length, 'tarif change', 'tarifs changent')}
                      {NBSP}:
                    </p>
                    <ChangeList changes={review.changes} />
                  </>
                ) : (
                  <p className="text-sm">Les prix en vigueur sont déjà ceux par défaut.</p>
                )}
                <DialogFooter>
                  <DialogClose asChild>
                    <Button type="button" variant="outline">
                      Annuler
                    </Button>
                  </DialogClose>
                  <Button
                    type="button"
                    variant="destructive"
                    onClick={() => publish({ intent: 'reset', [CONFIRMATION_FIELDS.confirmed]: '1' })}
                  >
                    Réinitialiser les tarifs
                  </Button>
                </DialogFooter>
              </>
            ) : review.step === 'summary' ? (
              <>
                <DialogHeader>
                  <DialogTitle>Publier les nouveaux tarifs{NBSP}?</DialogTitle>
                  <DialogDescription>
                    {`${plural(review.changes.length, 'tarif modifié', 'tarifs modifiés')}${NBSP}; la nouvelle grille s’applique immédiatement sur le site une fois publiée.`}
                  </DialogDescription>
                </DialogHeader>
                <ChangeList changes={review.changes} />
                <DialogFooter>
                  <DialogClose asChild>
                    <Button type="button" variant="outline">
                      Annuler
                    </Button>
                  </DialogClose>
                  <Button type="button" onClick={confirmUpdate}>
                    Publier les nouveaux tarifs
                  </Button>
                </DialogFooter>
              </>
            ) : (
              <>
                <DialogHeader>
                  <DialogTitle>Changement important</DialogTitle>
                  <DialogDescription>
                    {large.length > 1
                      ? `${large.length}${NBSP}tarifs changent de plus de ×3 ou ÷3, ce qui ressemble à une erreur de saisie.`
                      : 'Ce tarif change de plus de ×3 ou ÷3, ce qui ressemble à une erreur de saisie.'}
                  </DialogDescription>
                </DialogHeader>
                <ul className="flex flex-col gap-2 text-sm">
                  {large.map((change) => (
                    <li key={change.name}>{largeChangeSentence(change)}</li>
                  ))}
                </ul>
                <p className="font-medium text-sm">Confirmer quand même{NBSP}?</p>
                <DialogFooter>
                  <DialogClose asChild>
                    <Button type="button" variant="outline">
                      Annuler
                    </Button>
                  </DialogClose>
                  <Button type="button" variant="destructive" onClick={confirmUpdate}>
                    Confirmer et publier
                  </Button>
                </DialogFooter>
              </>
            )}
          </DialogContent>
        ) : null}
      </Dialog>
    </>
  );
}
