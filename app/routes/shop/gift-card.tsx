import { GiftIcon } from 'lucide-react';
import { data, Form, useNavigation } from 'react-router';
import { Button } from '~/components/ui/button';
import { Input } from '~/components/ui/input';
import { Label } from '~/components/ui/label';
import { Textarea } from '~/components/ui/textarea';
import { addDays, dayKey, parisDay } from '~/domain/calendar';
import { formatEurosFromCents, NBSP } from '~/domain/format';
import { giftCardPresets } from '~/domain/pricing/pricing';
import { GIFT_CARD_MAX_LENGTH, GIFT_CARD_MAX_SEND_DAYS, giftCardPurchaseSchema } from '~/domain/vouchers/gift-cards';
import { getUser } from '~/server/auth/session.server';
import { redirectToCheckout } from '~/server/copies/extra-copies.server';
import { readFormData } from '~/server/form-data.server';
import { getActivePriceList } from '~/server/pricing/price-lists.server';
import { startGiftCardOrder } from '~/server/vouchers/gift-cards.server';
import type { Route } from './+types/gift-card';

/*
 * /carte-cadeau (decision 037): « Offrir une carte cadeau ». An amount (within the price list's
 * bounds) or a ready-made present at today's prices, who it is for, a message, and either the day
 * it is e-mailed to them or « je l'imprime moi-même ». The form makes a draft order of the card
 * (app/server/vouchers/gift-cards.server.ts) and goes to the ordinary checkout; the card exists once
 * that order is paid. A plain form: it works without JavaScript, and a refused form comes back as
 * it was typed, each field with its French message.
 */

export const meta: Route.MetaFunction = () => [
  { title: 'Offrir une carte cadeau | Soovenirs' },
  // Not offered to search engines until a card can be spent at checkout (decision 037, « Not yet »).
  { name: 'robots', content: 'noindex' },
  {
    name: 'description',
    content:
      'Offrez la numérisation des souvenirs de famille : une carte cadeau Soovenirs du montant de votre choix, envoyée par e-mail le jour choisi ou à imprimer.',
  },
];

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' });

const CUSTOM = 'custom';

function todayKey(now = new Date()): string {
  return dayKey(parisDay(now));
}

export async function loader({ request }: Route.LoaderArgs) {
  const [user, priceList] = await Promise.all([getUser(request), getActivePriceList()]);
  const { minPrice, maxPrice, validityMonths } = priceList.data.giftCards;
  const today = todayKey();
  return {
    bounds: { minCents: minPrice, maxCents: maxPrice },
    validityMonths,
    presets: giftCardPresets(priceList.data),
    today,
    lastSendDay: dayKey(addDays(parisDay(new Date()), GIFT_CARD_MAX_SEND_DAYS)),
    buyerName: user ? [user.firstName, user.lastName].filter(Boolean).join(' ') : '',
  };
}

type Values = Record<
  'amountChoice' | 'amount' | 'buyerName' | 'recipientName' | 'recipientEmail' | 'message' | 'delivery' | 'sendDate',
  string
>;

interface ActionData {
  error: string;
  fieldErrors: Partial<Record<keyof Values, string>>;
  values: Values;
}

const BUYER_NAME_MAX = 80;

export async function action({ request }: Route.ActionArgs) {
  const [user, priceList, form] = await Promise.all([getUser(request), getActivePriceList(), readFormData(request)]);
  const text = (name: keyof Values) => {
    const value = form.get(name);
    return typeof value === 'string' ? value : '';
  };
  const values: Values = {
    amountChoice: text('amountChoice'),
    amount: text('amount'),
    buyerName: text('buyerName'),
    recipientName: text('recipientName'),
    recipientEmail: text('recipientEmail'),
    message: text('message'),
    delivery: text('delivery'),
    sendDate: text('sendDate'),
  };
  const { minPrice, maxPrice } = priceList.data.giftCards;
  const preset = giftCardPresets(priceList.data).find((p) => p.key === values.amountChoice);
  const fieldErrors: ActionData['fieldErrors'] = {};
  const parsed = giftCardPurchaseSchema({ minCents: minPrice, maxCents: maxPrice }, todayKey()).safeParse({
    // A ready-made present is priced here, from today's list: never from what the browser sent.
    amount: preset ? formatEurosFromCents(preset.amountCents).replace(/[\s\u00a0\u202f€]/g, '') : values.amount,
    recipientName: values.recipientName,
    recipientEmail: values.recipientEmail,
    message: values.message,
    delivery: values.delivery,
    sendDate: values.sendDate,
  });
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = String(issue.path[0] ?? '') as keyof Values;
      if (field && !fieldErrors[field]) fieldErrors[field] = issue.message;
    }
  }
  const buyerName = values.buyerName.trim();
  if (!buyerName) fieldErrors.buyerName = 'Indiquez votre nom\u00A0: il figure sur la carte.';
  else if (buyerName.length > BUYER_NAME_MAX)
    fieldErrors.buyerName = `Votre nom est trop long (${BUYER_NAME_MAX} caractères au plus).`;
  if (!parsed.success || Object.keys(fieldErrors).length > 0) {
    return data<ActionData>({
      error: 'La carte n’a pas été créée\u00A0: vérifiez les champs indiqués.',
      fieldErrors,
      values,
    });
  }
  const started = await startGiftCardOrder({
    purchase: parsed.data,
    buyer: {
      user: user ? { id: user.id, email: user.email, firstName: user.firstName, lastName: user.lastName } : null,
      name: buyerName,
    },
  });
  if (!started.ok)
    return data<ActionData>({ error: started.message, fieldErrors: { amount: started.message }, values });
  return redirectToCheckout(started);
}

function FieldError({ id, message }: { id: string; message: string | undefined }) {
  if (!message) return null;
  return (
    <p id={id} className="text-destructive text-sm">
      {message}
    </p>
  );
}

export default function GiftCardPage({ loaderData, actionData }: Route.ComponentProps) {
  const { bounds, presets, today, lastSendDay, validityMonths } = loaderData;
  const navigation = useNavigation();
  const values = actionData?.values;
  const errors = actionData?.fieldErrors ?? {};
  const choice = values?.amountChoice || presets[0]?.key || CUSTOM;
  const delivery = values?.delivery || 'email';
  const described = (name: keyof Values) =>
    errors[name] ? { 'aria-describedby': `${name}-error`, 'aria-invalid': true } : {};

  return (
    <section
      aria-labelledby="gift-card-title"
      className="mx-auto flex w-full max-w-3xl flex-1 flex-col gap-8 px-4 py-10 sm:px-6"
    >
      <div className="flex flex-col gap-2">
        <p className="inline-flex items-center gap-2 font-semibold text-sepia text-sm uppercase tracking-wider">
          <GiftIcon className="size-4" aria-hidden="true" />
          Carte cadeau
        </p>
        <h1 id="gift-card-title" className="text-title">
          Offrir une carte cadeau
        </h1>
        <p className="text-muted-foreground">
          Offrez la numérisation des souvenirs de famille{NBSP}: cassettes, photos, diapositives, films. La carte est
          valable {validityMonths}
          {NBSP}mois sur tous nos services et se règle comme une commande (carte bancaire, virement ou chèque).
        </p>
      </div>

      {actionData ? (
        <p role="alert" className="rounded-md border border-destructive/40 bg-destructive/5 p-3 text-destructive">
          {actionData.error}
        </p>
      ) : null}

      <Form method="post" className="flex flex-col gap-8" noValidate>
        <fieldset className="flex flex-col gap-3" {...described('amount')}>
          <legend className="mb-2 font-semibold text-lg">Montant</legend>
          {presets.map((preset) => (
            <label key={preset.key} className="flex items-center gap-3">
              <input
                type="radio"
                name="amountChoice"
                value={preset.key}
                defaultChecked={choice === preset.key}
                className="size-4 accent-primary"
              />
              <span>
                {preset.label}, {formatEurosFromCents(preset.amountCents)} au tarif actuel
              </span>
            </label>
          ))}
          <label className="flex items-center gap-3">
            <input
              type="radio"
              name="amountChoice"
              value={CUSTOM}
              defaultChecked={choice === CUSTOM}
              className="size-4 accent-primary"
            />
            <span>Un montant de mon choix</span>
          </label>
          <div className="flex flex-col gap-1.5 pl-7">
            <Label htmlFor="amount">
              Montant en euros (de {formatEurosFromCents(bounds.minCents)} à {formatEurosFromCents(bounds.maxCents)})
            </Label>
            <Input
              id="amount"
              name="amount"
              inputMode="decimal"
              autoComplete="off"
              className="max-w-40"
              defaultValue={values?.amount ?? ''}
              {...described('amount')}
            />
            <FieldError id="amount-error" message={errors.amount} />
          </div>
        </fieldset>

        <fieldset className="flex flex-col gap-4">
          <legend className="mb-2 font-semibold text-lg">Pour qui{NBSP}?</legend>
          <div className="flex flex-col gap-1.5">
            <Label htmlFor="recipientName">Son prénom et son nom</Label>
            <Input
              id="recipientName"
              name="recipientName"
              autoComplete="off"
              maxLength={GIFT_CARD_MAX_LENGTH.recipientName}
              defaultValue={values?.recipientName ?? ''}
              {...described('recipientName')}
            />
            <FieldError id="recipientName-error" message={errors.recipientName} />
          </div>
          <div className="flex flex-col gap-1.5">
            <Label htmlFor="recipientEmail">Son adresse e-mail</Label>
            <Input
              id="recipientEmail"
              name="recipientEmail"
              type="email"
              autoComplete="off"
              maxLength={GIFT_CARD_MAX_LENGTH.recipientEmail}
              defaultValue={values?.recipientEmail ?? ''}
              {...described('recipientEmail')}
            />
            <FieldError id="recipientEmail-error" message={errors.recipientEmail} />
          </div>
          <div className="flex flex-col gap-1.5">
            <Label htmlFor="buyerName">De la part de</Label>
            <Input
              id="buyerName"
              name="buyerName"
              autoComplete="name"
              maxLength={BUYER_NAME_MAX}
              defaultValue={values?.buyerName ?? loaderData.buyerName}
              {...described('buyerName')}
            />
            <FieldError id="buyerName-error" message={errors.buyerName} />
          </div>
          <div className="flex flex-col gap-1.5">
            <Label htmlFor="message">Votre message (facultatif)</Label>
            <Textarea
              id="message"
              name="message"
              rows={4}
              maxLength={GIFT_CARD_MAX_LENGTH.message}
              defaultValue={values?.message ?? ''}
              {...described('message')}
            />
            <FieldError id="message-error" message={errors.message} />
          </div>
        </fieldset>

        <fieldset className="flex flex-col gap-3">
          <legend className="mb-2 font-semibold text-lg">Comment l’offrir{NBSP}?</legend>
          <label className="flex items-center gap-3">
            <input
              type="radio"
              name="delivery"
              value="email"
              defaultChecked={delivery === 'email'}
              className="size-4 accent-primary"
            />
            <span>Par e-mail, le jour de mon choix (vers 8{NBSP}h)</span>
          </label>
          <div className="flex flex-col gap-1.5 pl-7">
            <Label htmlFor="sendDate">Date d’envoi</Label>
            <Input
              id="sendDate"
              name="sendDate"
              type="date"
              min={today}
              max={lastSendDay}
              className="max-w-48"
              defaultValue={values?.sendDate ?? today}
              {...described('sendDate')}
            />
            <FieldError id="sendDate-error" message={errors.sendDate} />
          </div>
          <label className="flex items-center gap-3">
            <input
              type="radio"
              name="delivery"
              value="print"
              defaultChecked={delivery === 'print'}
              className="size-4 accent-primary"
            />
            <span>Je l’imprime moi-même (la carte m’est envoyée en PDF dès le paiement)</span>
          </label>
          <FieldError id="delivery-error" message={errors.delivery} />
        </fieldset>

        <div className="flex flex-col gap-2">
          <Button type="submit" className="w-fit" disabled={navigation.state === 'submitting'}>
            Continuer vers le paiement
          </Button>
          <p className="text-muted-foreground text-sm">
            Vous disposez de 14{NBSP}jours pour vous rétracter tant que la carte n’a pas servi. La TVA (20{NBSP}%) est
            facturée à l’achat de la carte.
          </p>
        </div>
      </Form>
    </section>
  );
}
