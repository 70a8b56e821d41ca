import { getFormProps, getInputProps, type SubmissionResult, useForm } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod/v4';
import { CheckCircle2Icon, MailIcon, PencilIcon, ShoppingCartIcon, TriangleAlertIcon } from 'lucide-react';
import { Form, Link, useNavigation } from 'react-router';
import { formatDateFr, formatEurosFromCents } from '~/domain/format';
import type { PriceListDocument } from '~/domain/pricing/default-price-list';
import type { PricedOrder } from '~/domain/pricing/pricing';
import { quoteEmailSchema } from '~/domain/pricing/quote-email';
import { type Selection, selectionToSearchParams } from '~/domain/pricing/selection';
import { PriceDetails } from '../configurator/price-details';
import { useLivePriceList } from '../configurator/use-live-price-list';
import { Button } from '../ui/button';
import { Input } from '../ui/input';
import { Label } from '../ui/label';

export interface QuoteViewData {
  id: string;
  createdAt: Date;
  selection: Selection | null;
  totalPriceCents: number;
  saved: PricedOrder | null;
  priceList: { version: number; data: PriceListDocument };
  active: { version: number; data: PriceListDocument };
  current: PricedOrder | null;
  pricesChanged: boolean;
  order: { id: string; number: string; status: string; paymentStatus: string } | null;
}

export type QuoteActionData =
  | { intent: 'order'; message: string }
  | { intent: 'email'; result: SubmissionResult<string[]>; message: string | null }
  | { intent: null; message: string }
  | undefined;

export interface QuoteViewProps {
  quote: QuoteViewData;
  /** The customer's own quote (/mes-devis/<id>) or a private link (/devis/<token>). */
  mode: 'account' | 'link';
  justSaved: boolean;
  /** The private link's full address, shown after saving. */
  privateUrl?: string;
  defaultEmail?: string;
  actionData: QuoteActionData;
}

export function QuoteView({ quote, mode, justSaved, privateUrl, defaultEmail, actionData }: QuoteViewProps) {
  useLivePriceList(quote.active.version);
  const navigation = useNavigation();
  const ordering = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'order';
  const orderMessage = actionData?.intent === 'order' ? actionData.message : null;
  const editUrl = quote.selection ? `/configurateur?${selectionToSearchParams(quote.selection)}` : '/configurateur';
  const pendingOrder =
    quote.order && quote.order.status === 'pending' && quote.order.paymentStatus === 'pending' ? quote.order : null;

  return (
    <div className="mx-auto flex w-full max-w-3xl flex-col gap-6 px-4 py-10 sm:px-6">
      {mode === 'account' ? (
        <nav aria-label="Fil d’Ariane" className="text-muted-foreground text-sm">
          <Link to="/mes-devis" className="underline underline-offset-4 hover:text-foreground">
            Mes devis
          </Link>
          <span aria-hidden="true"> / </span>
          <span aria-current="page">Devis du {formatDateFr(quote.createdAt)}</span>
        </nav>
      ) : null}
      <header className="flex flex-col gap-2">
        <p className="font-semibold text-sepia text-sm uppercase tracking-wider">Devis</p>
        <h1 className="text-title">Devis du {formatDateFr(quote.createdAt)}</h1>
        <p className="text-muted-foreground">
          Établi avec la grille tarifaire n°{'\u00A0'}
          {quote.priceList.version} du {formatDateFr(quote.priceList.data.lastUpdated)}.
        </p>
      </header>

      {justSaved ? (
        <div
          role="status"
          className="flex gap-3 rounded-lg border border-success-tint-border bg-success-tint p-4 text-success-tint-foreground"
        >
          <CheckCircle2Icon aria-hidden="true" className="mt-0.5 size-5 shrink-0" />
          <div className="flex min-w-0 flex-1 flex-col gap-2">
            <p className="font-medium">Votre devis est enregistré.</p>
            {mode === 'link' && privateUrl ? (
              <>
                <p className="text-sm">
                  Conservez ce lien privé&#8239;: c’est le seul moyen de retrouver ce devis sans compte. Vous pouvez
                  aussi le recevoir par e-mail ci-dessous.
                </p>
                <Label htmlFor="private-link" className="text-success-tint-foreground">
                  Lien privé de votre devis
                </Label>
                <Input id="private-link" readOnly value={privateUrl} className="font-mono text-xs" />
              </>
            ) : (
              <p className="text-sm">
                Vous le retrouverez à tout moment dans{' '}
                <Link to="/mes-devis" className="underline underline-offset-4">
                  Mes devis
                </Link>
                .
              </p>
            )}
          </div>
        </div>
      ) : null}

      {quote.pricesChanged && quote.current ? (
        <div
          role="status"
          className="flex gap-3 rounded-lg border border-warning-tint-border bg-warning-tint p-4 text-warning-tint-foreground"
        >
          <TriangleAlertIcon aria-hidden="true" className="mt-0.5 size-5 shrink-0" />
          <p>
            Les tarifs ont changé depuis ce devis (nouvelle grille du {formatDateFr(quote.active.data.lastUpdated)}). Au
            tarif actuel, cette commande s’élève à{' '}
            <strong>{formatEurosFromCents(quote.current.price.totalPriceCents)}</strong> au lieu de{' '}
            {formatEurosFromCents(quote.totalPriceCents)}.
          </p>
        </div>
      ) : null}

      <section aria-labelledby="quote-details" className="rounded-xl border border-border bg-card p-5 shadow-sm">
        <h2 id="quote-details" className="mb-3 font-heading font-semibold text-xl">
          Détail du devis
        </h2>
        {quote.saved && quote.selection ? (
          <PriceDetails
            list={quote.priceList.data}
            quote={quote.saved}
            choice={quote.selection}
            totalId="quote-total"
            totalLabel="Montant du devis TTC"
          />
        ) : (
          <p className="text-muted-foreground">
            Ce devis ne correspond plus à nos prestations actuelles. Refaites une estimation dans le configurateur.
          </p>
        )}
      </section>

      <section aria-labelledby="quote-order" className="flex flex-col gap-3">
        <h2 id="quote-order" className="font-heading font-semibold text-xl">
          Commander ce devis
        </h2>
        {pendingOrder ? (
          <p className="text-muted-foreground text-sm">
            Ce devis a déjà donné lieu à la commande {pendingOrder.number}, en attente de paiement.
          </p>
        ) : quote.order ? (
          <p className="text-muted-foreground text-sm">
            Ce devis a déjà donné lieu à la commande {quote.order.number}.
          </p>
        ) : null}
        {quote.current ? (
          <Form method="post" className="flex flex-col gap-3 sm:flex-row sm:items-center">
            <input type="hidden" name="intent" value="order" />
            <input type="hidden" name="priceListVersion" value={quote.active.version} />
            <Button type="submit" variant="accent" size="lg" disabled={ordering}>
              <ShoppingCartIcon aria-hidden="true" />
              Commander
            </Button>
            <p className="text-sm">
              Montant à régler{'\u202F'}:{' '}
              <strong id="quote-order-total" className="tabular-nums">
                {formatEurosFromCents(quote.current.price.totalPriceCents)}
              </strong>{' '}
              TTC
            </p>
          </Form>
        ) : null}
        {orderMessage ? (
          <p role="alert" className="font-medium text-destructive text-sm">
            {orderMessage}
          </p>
        ) : null}
        <div>
          <Button asChild variant="outline">
            <Link to={editUrl}>
              <PencilIcon aria-hidden="true" />
              Modifier dans le configurateur
            </Link>
          </Button>
        </div>
      </section>

      <QuoteEmailForm defaultEmail={defaultEmail} actionData={actionData} />
    </div>
  );
}

function QuoteEmailForm({ defaultEmail, actionData }: { defaultEmail?: string; actionData: QuoteActionData }) {
  const emailResult = actionData?.intent === 'email' ? actionData : null;
  const [form, fields] = useForm({
    id: 'quote-email',
    lastResult: emailResult?.result,
    defaultValue: { email: defaultEmail ?? '' },
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: quoteEmailSchema }),
  });
  const navigation = useNavigation();
  const sending = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'email';
  return (
    <section aria-labelledby="quote-email-title" className="flex flex-col gap-3 border-border border-t pt-6">
      <h2 id="quote-email-title" className="font-heading font-semibold text-xl">
        Recevoir ce devis par e-mail
      </h2>
      <Form method="post" {...getFormProps(form)} className="flex flex-col gap-3">
        <input type="hidden" name="intent" value="email" />
        {/* Honeypot: hidden from people and from assistive technologies, filled by robots. */}
        <div aria-hidden="true" className="absolute left-[-9999px] h-px w-px overflow-hidden">
          <label htmlFor="quote-email-website">Ne pas remplir</label>
          <input id="quote-email-website" name="website" type="text" tabIndex={-1} autoComplete="off" />
        </div>
        <div className="flex flex-col gap-1.5">
          <Label htmlFor={fields.email.id}>Adresse e-mail</Label>
          <div className="flex flex-col gap-2 sm:flex-row">
            <Input
              {...getInputProps(fields.email, { type: 'email' })}
              key={fields.email.key}
              autoComplete="email"
              className="sm:max-w-sm"
            />
            <Button type="submit" variant="secondary" disabled={sending}>
              <MailIcon aria-hidden="true" />
              Envoyer
            </Button>
          </div>
          {fields.email.errors?.length ? (
            <p id={fields.email.errorId} className="font-medium text-destructive text-sm">
              {fields.email.errors.join(' ')}
            </p>
          ) : null}
        </div>
        {emailResult?.message ? (
          <p role="status" className="text-sm">
            {emailResult.message}
          </p>
        ) : null}
      </Form>
    </section>
  );
}
