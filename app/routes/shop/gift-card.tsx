import type { ComponentProps, ReactNode } from 'react';
import { data, Form, useNavigation } from 'react-router';
import { GiftCardHeading } from '~/components/gift-cards/gift-card-heading';
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

/** A radio button and its words. */
function Choice({
  name,
  value,
  checked,
  children,
}: {
  name: string;
  value: string;
  checked: boolean;
  children: ReactNode;
}) {
  return (
    <label className="flex items-center gap-3">
      <input type="radio" name={name} value={value} defaultChecked={checked} className="size-4 accent-primary" />
      <span>{children}</span>
    </label>
  );
}

/** A one-line field with its label and, after a refused post, its French message. */
function TextField({
  name,
  label,
  error,
  indent = false,
  ...input
}: { name: keyof Values; label: ReactNode; error: string | undefined; indent?: boolean } & ComponentProps<
  typeof Input
>) {
  return (
    <div className={indent ? 'flex flex-col gap-1.5 pl-7' : 'flex flex-col gap-1.5'}>
      <Label htmlFor={name}>{label}</Label>
      <Input
        id={name}
        name={name}
        {...input}
        {...(error ? { 'aria-describedby': `${name}-error`, 'aria-invalid': true } : {})}
      />
      <FieldError id={`${name}-error`} message={error} />
    </div>
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
      <GiftCardHeading id="gift-card-title" title="Offrir une carte cadeau">
        Offrez la numérisation des souvenirs de famille{NBSP}: cassettes, photos, diapositives, films. La carte est
        valable {validityMonths}
        {NBSP}mois sur tous nos services et se règle comme une commande (carte bancaire, virement ou chèque).
      </GiftCardHeading>

      {actionData ? (
        <p role="alert" className="rounded-md border border-destructive/40 bg-destructive/5 p-3 text-destructive">
          {actionData.error}
        </p>
      ) : null}

      <Form method="post" className="flex flex-col gap-8" noValidate>
        <fieldset className="flex flex-col gap-3" {...described('amount')}>
          <legend className="mb-2 font-semibold text-lg">Montant</legend>
          {presets.map((preset) => (
            <Choice key={preset.key} name="amountChoice" value={preset.key} checked={choice === preset.key}>
              {preset.label}, {formatEurosFromCents(preset.amountCents)} au tarif actuel
            </Choice>
          ))}
          <Choice name="amountChoice" value={CUSTOM} checked={choice === CUSTOM}>
            Un montant de mon choix
          </Choice>
          <TextField
            indent
            name="amount"
            label={
              <>
                Montant en euros (de {formatEurosFromCents(bounds.minCents)} à {formatEurosFromCents(bounds.maxCents)})
              </>
            }
            defaultValue={values?.amount ?? ''}
            error={errors.amount}
            inputMode="decimal"
            autoComplete="off"
            className="max-w-40"
          />
        </fieldset>

        <fieldset className="flex flex-col gap-4">
          <legend className="mb-2 font-semibold text-lg">Pour qui{NBSP}?</legend>
          <TextField
            name="recipientName"
            label="Son prénom et son nom"
            defaultValue={values?.recipientName ?? ''}
            error={errors.recipientName}
            autoComplete="off"
            maxLength={GIFT_CARD_MAX_LENGTH.recipientName}
          />
          <TextField
            name="recipientEmail"
            label="Son adresse e-mail"
            defaultValue={values?.recipientEmail ?? ''}
            error={errors.recipientEmail}
            type="email"
            autoComplete="off"
            maxLength={GIFT_CARD_MAX_LENGTH.recipientEmail}
          />
          <TextField
            name="buyerName"
            label="De la part de"
            defaultValue={values?.buyerName ?? loaderData.buyerName}
            error={errors.buyerName}
            autoComplete="name"
            maxLength={BUYER_NAME_MAX}
          />
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
          <Choice name="delivery" value="email" checked={delivery === 'email'}>
            Par e-mail, le jour de mon choix (vers 8{NBSP}h)
          </Choice>
          <TextField
            indent
            name="sendDate"
            label="Date d’envoi"
            defaultValue={values?.sendDate ?? today}
            error={errors.sendDate}
            type="date"
            min={today}
            max={lastSendDay}
            className="max-w-48"
          />
          <Choice name="delivery" value="print" checked={delivery === 'print'}>
            Je l’imprime moi-même (la carte m’est envoyée en PDF dès le paiement)
          </Choice>
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
