import { ArrowLeftIcon, LockIcon } from 'lucide-react';
import { data, Form, Link, redirect, useNavigation } from 'react-router';
import { FormAlert } from '~/components/auth/form-alert';
import { Alert } from '~/components/ui/alert';
import { Button } from '~/components/ui/button';
import { Input } from '~/components/ui/input';
import { Label } from '~/components/ui/label';
import { useHydrated } from '~/components/use-hydrated';
import { formatDateFr, formatEurosFromCents } from '~/domain/format';
import { IBAN_MAX_KEEP_DAYS, IBAN_PAGE_MESSAGES, ibanRequestSentence } from '~/domain/orders/iban';
import { cookieHeaders } from '~/server/account/auth-calls.server';
import { loginRedirectPath } from '~/server/auth/session.server';
import { readFormData } from '~/server/form-data.server';
import { log } from '~/server/log.server';
import { accessFromLink, deniedOrderAnswer, getOrderForViewer } from '~/server/orders/access.server';
import { ibanPagePath, ibanStatus, saveIban } from '~/server/orders/refund-iban.server';
import type { Route } from './+types/refund-iban';

/*
 * /remboursement/:orderId, the page of « Indiquez-nous votre IBAN » (decision
 * 025): money is owed back on an order paid by transfer or cheque, and the customer gives the
 * account to pay it into. Open to the order's owner and to the guest holding its token (the
 * e-mail's link: the token becomes the order's cookie and leaves the address bar); a signed-out
 * account holder signs in and comes back. Staff do not type a customer's IBAN: 404 for them.
 * The IBAN is checked (SEPA, length, mod 97) before anything is stored; it is never shown back in
 * full once saved, only masked.
 */

export const SAVE_LABEL = 'Enregistrer mon IBAN';

export const meta: Route.MetaFunction = () => [
  { title: 'Votre remboursement | Soovenirs' },
  { name: 'robots', content: 'noindex' },
];

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' });

async function customerOrder(request: Request, orderId: string) {
  const found = await getOrderForViewer(request, orderId);
  if (!found) {
    if ((await deniedOrderAnswer(request, orderId)) === 'login') throw redirect(loginRedirectPath(request));
    throw data(null, { status: 404 });
  }
  if (found.viewer === 'admin') throw data(null, { status: 404 });
  return found;
}

export async function loader({ request, params }: Route.LoaderArgs) {
  const fromLink = await accessFromLink(request, params.orderId);
  if (fromLink) throw redirect(fromLink.cleanUrl, { headers: cookieHeaders(fromLink.setCookie || null) });
  const { order, viewer } = await customerOrder(request, params.orderId);
  const status = await ibanStatus(order.id);
  return {
    viewer,
    order: { id: order.id, number: order.number },
    status: status
      ? {
          owedCents: status.owedCents,
          receivedAt: status.receivedAt?.toISOString() ?? null,
          masked: status.masked,
        }
      : null,
  };
}

interface ActionResult {
  formError: string | null;
  fieldErrors: Record<string, string[]>;
  /** What was typed, given back so that nothing is lost. */
  values: { holder: string; iban: string; bic: string };
}

export async function action({ request, params }: Route.ActionArgs) {
  const { order, user } = await customerOrder(request, params.orderId);
  const form = await readFormData(request);
  const values = {
    holder: String(form.get('holder') ?? ''),
    iban: String(form.get('iban') ?? ''),
    bic: String(form.get('bic') ?? ''),
  };
  let result: Awaited<ReturnType<typeof saveIban>>;
  try {
    result = await saveIban({
      orderId: order.id,
      fields: values,
      actor: user && user.id === order.userId ? user.id : 'guest',
    });
  } catch (error) {
    // Never the form in the log: it holds the IBAN.
    log.error({ err: error, orderId: order.id }, 'the refund IBAN could not be saved');
    result = { ok: false, message: IBAN_PAGE_MESSAGES.failed };
  }
  if (result.ok) throw redirect(ibanPagePath(order.id));
  const fieldErrors = result.fieldErrors ?? {};
  return data(
    {
      formError: Object.keys(fieldErrors).length > 0 ? null : result.message,
      fieldErrors,
      values,
    } satisfies ActionResult,
    { status: 200 },
  );
}

function FieldError({ id, errors }: { id: string; errors: string[] | undefined }) {
  if (!errors?.length) return null;
  return (
    <p id={id} className="text-destructive text-sm">
      {errors.join(' ')}
    </p>
  );
}

export default function RefundIban({ loaderData, actionData }: Route.ComponentProps) {
  const hydrated = useHydrated();
  const { order, status, viewer } = loaderData;
  const navigation = useNavigation();
  const pending = navigation.state !== 'idle' && navigation.formMethod === 'POST';
  const errors = actionData?.fieldErrors ?? {};
  const values = actionData?.values;
  const back = viewer === 'owner' ? '/profile' : `/confirmation?orderId=${order.id}`;
  const owed = status && status.owedCents > 0 ? status.owedCents : 0;
  const field = (name: 'holder' | 'iban' | 'bic') => ({
    id: `iban-${name}`,
    name,
    defaultValue: values?.[name] ?? '',
    'aria-invalid': errors[name] ? true : undefined,
    'aria-describedby': errors[name] ? `iban-${name}-error` : undefined,
  });

  return (
    <section
      aria-labelledby="refund-iban-title"
      data-hydrated={hydrated}
      className="mx-auto flex w-full max-w-2xl flex-1 flex-col gap-6 px-4 py-10 sm:px-6"
    >
      <Link
        to={back}
        className="inline-flex w-fit items-center gap-1.5 text-primary text-sm underline-offset-4 hover:underline"
      >
        <ArrowLeftIcon className="size-4" aria-hidden="true" />
        {viewer === 'owner' ? 'Retour à mon compte' : 'Retour à la commande'}
      </Link>
      <div className="flex flex-col gap-2">
        <h1 id="refund-iban-title" className="text-title">
          Votre remboursement
        </h1>
        <p className="text-muted-foreground">Commande {order.number}</p>
      </div>

      <div className="flex flex-col gap-4 rounded-xl border border-border bg-card p-6 shadow-sm">
        {owed === 0 ? (
          <Alert>{IBAN_PAGE_MESSAGES.nothingOwed}</Alert>
        ) : (
          <>
            {status?.receivedAt && status.masked ? (
              <Alert variant="success" title={`IBAN reçu le ${formatDateFr(status.receivedAt)}`}>
                <p>
                  Nous vous virerons {formatEurosFromCents(owed)} sur le compte {status.masked}. Vous recevrez un e-mail
                  avec votre avoir une fois le virement fait. Vous pouvez encore le corriger ci-dessous.
                </p>
              </Alert>
            ) : (
              <p className="font-medium">{ibanRequestSentence(owed, formatEurosFromCents)}.</p>
            )}
            <p className="text-muted-foreground text-sm">
              Vous avez payé par virement ou par chèque : nous vous remboursons par virement bancaire, sur un compte de
              la zone SEPA. Recopiez l’IBAN de votre RIB.
            </p>
            <FormAlert errors={actionData?.formError ? [actionData.formError] : null} />
            <Form method="post" className="flex flex-col gap-4" noValidate>
              <div className="flex flex-col gap-1.5">
                <Label htmlFor="iban-holder">Titulaire du compte</Label>
                <Input {...field('holder')} autoComplete="name" required maxLength={70} />
                <FieldError id="iban-holder-error" errors={errors.holder} />
              </div>
              <div className="flex flex-col gap-1.5">
                <Label htmlFor="iban-iban">IBAN</Label>
                <Input
                  {...field('iban')}
                  autoComplete="off"
                  spellCheck={false}
                  autoCapitalize="characters"
                  inputMode="text"
                  required
                  maxLength={64}
                  placeholder="FR76 3000 6000 0112 3456 7890 189"
                />
                <FieldError id="iban-iban-error" errors={errors.iban} />
              </div>
              <div className="flex flex-col gap-1.5">
                <Label htmlFor="iban-bic">BIC (facultatif)</Label>
                <Input
                  {...field('bic')}
                  autoComplete="off"
                  spellCheck={false}
                  autoCapitalize="characters"
                  maxLength={20}
                />
                <FieldError id="iban-bic-error" errors={errors.bic} />
              </div>
              <Button type="submit" size="lg" disabled={pending} className="w-fit">
                <LockIcon className="size-4" aria-hidden="true" />
                {SAVE_LABEL}
              </Button>
            </Form>
            <p className="text-muted-foreground text-sm">
              Votre IBAN est conservé chiffré, utilisé seulement pour ce remboursement et effacé dès le virement fait
              (au plus tard {IBAN_MAX_KEEP_DAYS} jours après sa saisie). Seule la personne chargée des remboursements le
              voit en entier.
            </p>
          </>
        )}
      </div>
    </section>
  );
}
