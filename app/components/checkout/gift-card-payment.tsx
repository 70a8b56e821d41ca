import { GiftIcon } from 'lucide-react';
import { Button } from '~/components/ui/button';
import { Input } from '~/components/ui/input';
import { Label } from '~/components/ui/label';
import { formatEurosFromCents, NBSP } from '~/domain/format';

/*
 * Paying with a gift card (decision 037), on the checkout and the confirmation. At the checkout the
 * code field belongs to the payment form: « Appliquer » posts the form to show what the card would
 * pay (nothing is taken yet, every field typed comes back), « Payer » takes it in the transaction
 * that places the order. Once taken, the card's part is a line of the order, with what is left to pay.
 */

/** The name of the « Appliquer » button (not `intent`: the payment form already posts one). */
export const GIFT_CARD_APPLY_FIELD = 'giftCardAction';
export const GIFT_CARD_CODE_FIELD = 'giftCardCode';
export const GIFT_CARD_AMOUNT_FIELD = 'giftCardAmount';

export interface GiftCardPreviewView {
  maskedCode: string;
  fromCardCents: number;
  fromOtherCents: number;
  sentence: string;
}

/** The code field, « Appliquer », and what the card would pay or why it cannot. */
export function GiftCardCodeField({
  typed,
  preview,
  error,
}: {
  /** The code and the amount as last posted. */
  typed: { code: string; amount: string };
  preview: GiftCardPreviewView | null;
  error: string | null;
}) {
  const describedBy = error ? 'gift-card-code-error' : preview ? 'gift-card-code-preview' : 'gift-card-code-hint';
  return (
    <fieldset className="flex flex-col gap-2 rounded-lg border border-border p-4">
      <legend className="flex items-center gap-2 px-1 font-medium">
        <GiftIcon className="size-4 text-primary" aria-hidden="true" />
        Carte cadeau
      </legend>
      <Label htmlFor="gift-card-code">Code de la carte (facultatif)</Label>
      <div className="flex flex-col gap-2 sm:flex-row">
        <Input
          id="gift-card-code"
          name={GIFT_CARD_CODE_FIELD}
          defaultValue={typed.code}
          autoComplete="off"
          spellCheck={false}
          maxLength={64}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          className="font-mono uppercase"
        />
        <Button type="submit" variant="outline" name={GIFT_CARD_APPLY_FIELD} value="apply" formNoValidate>
          Appliquer
        </Button>
      </div>
      <Label htmlFor="gift-card-amount">Montant à utiliser (facultatif)</Label>
      <Input
        id="gift-card-amount"
        name={GIFT_CARD_AMOUNT_FIELD}
        defaultValue={typed.amount}
        inputMode="decimal"
        autoComplete="off"
        maxLength={32}
        aria-describedby="gift-card-amount-hint"
        className="sm:max-w-40"
      />
      <p id="gift-card-amount-hint" className="text-muted-foreground text-sm">
        En euros. Laissé vide, la carte paie tout ce qu’elle peut.
      </p>
      {error ? (
        <p id="gift-card-code-error" role="alert" className="text-destructive text-sm">
          {error}
        </p>
      ) : preview ? (
        <p id="gift-card-code-preview" role="status" className="text-sm">
          Carte {preview.maskedCode}
          {NBSP}: {preview.sentence}
        </p>
      ) : (
        <p id="gift-card-code-hint" className="text-muted-foreground text-sm">
          16{NBSP}caractères, sur la carte et dans son e-mail. Elle paie tout ou partie de la commande, le reste par le
          moyen de paiement choisi.
        </p>
      )}
    </fieldset>
  );
}

/** The card's part once taken: what it pays, and what is left to pay (or was paid otherwise). */
export function GiftCardPaymentLine({
  part,
  totalCents,
  paid = false,
}: {
  part: { maskedCode: string; cents: number };
  totalCents: number;
  /** The order is paid: the rest was paid otherwise, nothing is left to pay. */
  paid?: boolean;
}) {
  const rest = Math.max(0, totalCents - part.cents);
  return (
    <dl className="grid grid-cols-[1fr_auto] gap-x-4 gap-y-1 rounded-lg border border-border bg-card p-4 text-sm">
      <dt className="flex items-center gap-2">
        <GiftIcon className="size-4 text-primary" aria-hidden="true" />
        Réglé par carte cadeau {part.maskedCode}
      </dt>
      <dd className="text-right tabular-nums">−{formatEurosFromCents(part.cents)}</dd>
      {rest > 0 ? (
        <>
          <dt className="font-semibold">{paid ? 'Réglé par votre paiement' : 'Reste à payer'}</dt>
          <dd className="text-right font-semibold tabular-nums">{formatEurosFromCents(rest)}</dd>
        </>
      ) : null}
    </dl>
  );
}
