import { TicketPercentIcon } from 'lucide-react';
import { Button } from '~/components/ui/button';
import { Input } from '~/components/ui/input';
import { Label } from '~/components/ui/label';
import { formatEurosFromCents, NBSP } from '~/domain/format';

/*
 * Promotion codes at checkout (decision 038). Like the gift card's field, the code belongs to the
 * payment form: « Appliquer » posts the form to show what the codes would take off (nothing is
 * written, every field typed comes back), « Payer » takes them in the transaction that places the
 * order. A reduction in percent is shown with its reference price (code de la consommation,
 * L112-1-1: the lowest price of the 30 days before it).
 */

/** The name of the « Appliquer » button (not `intent`: the payment form already posts one). */
export const PROMOTION_APPLY_FIELD = 'promotionAction';
export const PROMOTION_CODES_FIELD = 'promotionCodes';

export interface PromotionPreviewView {
  codes: Array<{ code: string; description: string; cents: number }>;
  discountCents: number;
  /** The order's total with the codes taken off. */
  totalCents: number;
  references: Array<{ label: string; code: string; referenceCents: number; discountedCents: number }>;
}

export function PromotionCodeField({
  typed,
  preview,
  error,
}: {
  typed: string;
  preview: PromotionPreviewView | null;
  error: string | null;
}) {
  const describedBy = error ? 'promotion-code-error' : preview ? 'promotion-code-preview' : 'promotion-code-hint';
  return (
    <fieldset className="flex flex-col gap-2 rounded-lg border border-border p-4">
      <legend className="flex items-center gap-2 px-1 font-medium">
        <TicketPercentIcon className="size-4 text-primary" aria-hidden="true" />
        Code promo
      </legend>
      <Label htmlFor="promotion-code">Code promo (facultatif)</Label>
      <div className="flex flex-col gap-2 sm:flex-row">
        <Input
          id="promotion-code"
          name={PROMOTION_CODES_FIELD}
          defaultValue={typed}
          autoComplete="off"
          spellCheck={false}
          maxLength={128}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          className="uppercase"
        />
        <Button type="submit" variant="outline" name={PROMOTION_APPLY_FIELD} value="apply" formNoValidate>
          Appliquer
        </Button>
      </div>
      {error ? (
        <p id="promotion-code-error" role="alert" className="text-destructive text-sm">
          {error}
        </p>
      ) : preview ? (
        <div id="promotion-code-preview" role="status" className="flex flex-col gap-1 text-sm">
          {preview.codes.map((code) => (
            <p key={code.code}>
              Code {code.code} ({code.description}){NBSP}: −{formatEurosFromCents(code.cents)}
            </p>
          ))}
          {preview.references.map((row) => (
            <p key={`${row.code}-${row.label}`} className="text-muted-foreground">
              {row.label}
              {NBSP}: {formatEurosFromCents(row.discountedCents)} l’unité avec {row.code}, prix de référence{' '}
              {formatEurosFromCents(row.referenceCents)} (le plus bas des 30{NBSP}jours précédant la remise).
            </p>
          ))}
          <p className="font-medium">
            Nouveau total{NBSP}: {formatEurosFromCents(preview.totalCents)}
          </p>
        </div>
      ) : (
        <p id="promotion-code-hint" className="text-muted-foreground text-sm">
          La remise s’applique à la numérisation, hors livraison et envois. Plusieurs codes cumulables se séparent par
          une virgule.
        </p>
      )}
    </fieldset>
  );
}
