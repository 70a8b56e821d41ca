import { useEffect, useRef } from 'react';
import { data, Form, Link, useNavigation } from 'react-router';
import { GiftCardHeading } from '~/components/gift-cards/gift-card-heading';
import { Button } from '~/components/ui/button';
import { Input } from '~/components/ui/input';
import { Label } from '~/components/ui/label';
import { formatDateFr, formatEurosFromCents, NBSP } from '~/domain/format';
import { GIFT_CARD_STATE_LABELS } from '~/domain/vouchers/gift-cards';
import { getUser } from '~/server/auth/session.server';
import { readFormData } from '~/server/form-data.server';
import { lookUpGiftCard } from '~/server/vouchers/gift-card-lookup.server';
import type { Route } from './+types/gift-card-redeem';

/*
 * /carte-cadeau/utiliser (decision 037): where the card's e-mail button and its QR code lead. The
 * code travels after `#`, which no browser sends to a server (no access log holds it): once React
 * runs, the field is filled from it and the address bar cleaned. Without JavaScript the person types
 * the code. The answer is the card's balance, state and validity; wrong codes are counted
 * (gift-card-lookup.server.ts).
 */

export const meta: Route.MetaFunction = () => [
  { title: 'Ma carte cadeau | Soovenirs' },
  { name: 'robots', content: 'noindex' },
];

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' });

type ActionData =
  | {
      found: true;
      card: { maskedCode: string; balanceCents: number; initialCents: number; state: string; expiresAt: string };
    }
  | { found: false; message: string; code: string };

export async function action({ request }: Route.ActionArgs) {
  const [user, form] = await Promise.all([getUser(request), readFormData(request)]);
  const typed = String(form.get('code') ?? '').slice(0, 64);
  const lookup = await lookUpGiftCard(request, typed, user?.id ?? null);
  if (lookup.kind === 'refused') {
    return data<ActionData>(
      { found: false, message: lookup.message, code: typed },
      { status: lookup.limited ? 429 : 200 },
    );
  }
  const { card } = lookup;
  return data<ActionData>({
    found: true,
    card: {
      maskedCode: card.maskedCode,
      balanceCents: card.balanceCents,
      initialCents: card.initialCents,
      state: GIFT_CARD_STATE_LABELS[card.state],
      expiresAt: card.expiresAt.toISOString(),
    },
  });
}

export default function GiftCardRedeem({ actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const field = useRef<HTMLInputElement>(null);
  // The e-mail's link carries the code after `#code=`: put it in the field, out of the address bar.
  useEffect(() => {
    const match = /(?:^#|&)code=([^&]+)/.exec(window.location.hash);
    if (!match?.[1] || !field.current) return;
    field.current.value = decodeURIComponent(match[1]);
    window.history.replaceState(null, '', window.location.pathname);
  }, []);
  const refused = actionData && !actionData.found ? actionData : null;

  return (
    <section
      aria-labelledby="redeem-title"
      className="mx-auto flex w-full max-w-2xl flex-1 flex-col gap-8 px-4 py-10 sm:px-6"
    >
      <GiftCardHeading id="redeem-title" title="Ma carte cadeau Soovenirs">
        Saisissez le code de votre carte (16{NBSP}caractères, sur la carte et dans son e-mail) pour connaître son solde
        et sa date de validité.
      </GiftCardHeading>

      <Form method="post" className="flex flex-col gap-3" noValidate>
        <Label htmlFor="code">Code de la carte</Label>
        <Input
          ref={field}
          id="code"
          name="code"
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          placeholder="XXXX-XXXX-XXXX-XXXX"
          className="max-w-72 font-mono tracking-wider"
          defaultValue={refused?.code ?? ''}
          aria-invalid={refused ? true : undefined}
          aria-describedby={refused ? 'code-error' : undefined}
        />
        {refused ? (
          <p id="code-error" role="alert" className="text-destructive">
            {refused.message}
          </p>
        ) : null}
        <Button type="submit" className="w-fit" disabled={navigation.state === 'submitting'}>
          Voir le solde
        </Button>
      </Form>

      {actionData?.found ? (
        <section
          aria-labelledby="balance-title"
          className="flex flex-col gap-2 rounded-lg border border-border bg-card p-5"
        >
          <h2 id="balance-title" className="font-semibold text-lg">
            Carte {actionData.card.maskedCode}
          </h2>
          <p className="text-2xl">
            Solde{NBSP}: <strong>{formatEurosFromCents(actionData.card.balanceCents)}</strong>
            <span className="text-base text-muted-foreground">
              {' '}
              sur {formatEurosFromCents(actionData.card.initialCents)}
            </span>
          </p>
          <p>
            État{NBSP}: {actionData.card.state} · valable jusqu’au {formatDateFr(actionData.card.expiresAt)}
          </p>
          <p className="text-muted-foreground text-sm">
            Pour l’utiliser, composez votre commande, puis saisissez ce code dans «{NBSP}Carte cadeau{NBSP}» au moment
            du paiement{NBSP}: elle en règle tout ou partie.{' '}
            <Link to="/configurateur" className="text-primary underline-offset-4 hover:underline">
              Estimer une commande
            </Link>{' '}
            ou{' '}
            <Link to="/contact" className="text-primary underline-offset-4 hover:underline">
              nous écrire
            </Link>
            .
          </p>
        </section>
      ) : null}
    </section>
  );
}
