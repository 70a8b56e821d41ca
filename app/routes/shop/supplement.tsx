import { getFormProps, type SubmissionResult, useForm } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod/v4';
import { CircleCheckIcon } from 'lucide-react';
import { data, Form, Link, redirect, useNavigation } from 'react-router';
import { FormAlert } from '~/components/auth/form-alert';
import { Button } from '~/components/ui/button';
import { useHydrated } from '~/components/use-hydrated';
import { formatEurosFromCents } from '~/domain/format';
import { supplementAnswerSchema } from '~/domain/orders/supplement-answer';
import { cookieHeaders } from '~/server/account/auth-calls.server';
import { readFormData } from '~/server/form-data.server';
import { log } from '~/server/log.server';
import {
  createSupplementCheckout,
  declineSupplement,
  getSupplementForViewer,
  SUPPLEMENT_MESSAGES,
  supplementFromLink,
} from '~/server/orders/supplements.server';
import { CheckoutError } from '~/server/payments/checkout.server';
import type { Route } from './+types/supplement';

/*
 * /supplement/:id, the page of the supplement e-mail (docs/fulfilment.md): what was counted beyond
 * the order and its price, then « Payer le supplément » (the active gateway) or « Refuser » (only
 * what was paid is digitised). Open to the order's owner, the guest with the order's token, and
 * whoever holds the e-mail's link (its token is kept in a cookie and leaves the address bar).
 */

export const PAY_LABEL = 'Payer le supplément';
export const DECLINE_LABEL = 'Refuser';
export const CONFIRM_DECLINE_LABEL = 'Confirmer le refus';

export const meta: Route.MetaFunction = () => [
  { title: 'Supplément à valider | Soovenirs' },
  { name: 'robots', content: 'noindex' },
];

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' });

async function supplementOr404(request: Request, id: string) {
  const supplement = await getSupplementForViewer(request, id);
  if (!supplement) throw data(null, { status: 404 });
  return supplement;
}

export async function loader({ request, params }: Route.LoaderArgs) {
  const fromLink = await supplementFromLink(request, params.id);
  if (fromLink) throw redirect(fromLink.cleanUrl, { headers: cookieHeaders(fromLink.setCookie || null) });
  return { supplement: await supplementOr404(request, params.id) };
}

/** The form's answer; `done`: the decline recorded; `confirming`: « Refuser » asks to confirm. */
type ActionResult = { submission: SubmissionResult<string[]>; done: string | null; confirming?: boolean };

export async function action({ request, params }: Route.ActionArgs) {
  const supplement = await supplementOr404(request, params.id);
  const submission = parseWithZod(await readFormData(request), { schema: supplementAnswerSchema });
  if (submission.status !== 'success') {
    return data({ submission: submission.reply(), done: null } satisfies ActionResult, { status: 400 });
  }
  const refuse = (message: string, status: number) =>
    data({ submission: submission.reply({ formErrors: [message] }), done: null } satisfies ActionResult, { status });
  // « Refuser » changes nothing yet: the page asks to confirm (a form, so it works without JavaScript).
  if (submission.value === 'decline') {
    return data({ submission: submission.reply(), done: null, confirming: true } satisfies ActionResult);
  }
  if (submission.value === 'confirm-decline') {
    const result = await declineSupplement(supplement, 'digitise_paid', 'customer');
    if (!result.ok) return refuse(result.message, 409);
    return data({
      submission: submission.reply(),
      done: SUPPLEMENT_MESSAGES.declined as string,
    } satisfies ActionResult);
  }
  try {
    throw redirect(await createSupplementCheckout(supplement));
  } catch (error) {
    if (error instanceof CheckoutError) return refuse(error.message, error.status);
    if (error instanceof Response) throw error;
    log.error({ err: error, supplementId: supplement.id }, 'the supplement payment could not start');
    return refuse('Le paiement n’a pas pu démarrer. Réessayez dans un instant.', 502);
  }
}

export default function Supplement({ loaderData, actionData }: Route.ComponentProps) {
  const hydrated = useHydrated();
  const { supplement } = loaderData;
  const navigation = useNavigation();
  const pending = navigation.state !== 'idle' && navigation.formMethod === 'POST';
  // One form, two buttons: the intent is the pressed button's.
  const [form] = useForm({ id: 'supplement-answer', lastResult: actionData?.submission });
  return (
    <section
      aria-labelledby="supplement-title"
      data-hydrated={hydrated}
      className="mx-auto flex w-full max-w-2xl flex-1 flex-col gap-6 px-4 py-10 sm:px-6"
    >
      <div className="flex flex-col gap-2">
        <h1 id="supplement-title" className="text-title">
          Supplément de la commande {supplement.orderNumber}
        </h1>
        <p className="text-muted-foreground">
          Nous avons compté vos originaux à leur arrivée : voici la différence avec votre commande, au tarif de votre
          commande.
        </p>
      </div>
      <div className="flex flex-col gap-4 rounded-xl border border-border bg-card p-6 shadow-sm">
        <table className="w-full text-sm">
          <caption className="sr-only">Différences comptées à la réception</caption>
          <thead>
            <tr className="text-left text-muted-foreground">
              <th scope="col">Support</th>
              <th scope="col">Commandé</th>
              <th scope="col">Reçu</th>
              <th scope="col" className="text-right">
                Montant
              </th>
            </tr>
          </thead>
          <tbody>
            {supplement.lines.map((line) => (
              <tr key={line.label}>
                <td>{line.label}</td>
                <td>{line.ordered}</td>
                <td>{line.counted}</td>
                <td className="text-right">{formatEurosFromCents(line.differenceCents)}</td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr className="font-semibold">
              <td colSpan={3}>Supplément</td>
              <td className="text-right">{formatEurosFromCents(supplement.amountCents)}</td>
            </tr>
          </tfoot>
        </table>
        <FormAlert id={form.errorId} errors={form.errors} />
        {actionData?.done ? <p role="status">{actionData.done}</p> : null}
        {supplement.status === 'awaiting_customer' && actionData && 'confirming' in actionData ? (
          <Form
            method="post"
            aria-labelledby="decline-title"
            className="flex flex-col gap-3 rounded-lg border border-warning-tint-border bg-warning-tint p-4 text-warning-tint-foreground"
            {...getFormProps(form)}
          >
            <h2 id="decline-title" className="font-semibold">
              Refuser le supplément de {formatEurosFromCents(supplement.amountCents)}&nbsp;?
            </h2>
            <p className="text-sm">
              Nous numériserons seulement ce que vous avez déjà payé, et tous vos originaux vous seront rendus. Ce choix
              est définitif.
            </p>
            <div className="flex flex-col gap-3 sm:flex-row">
              <Button type="submit" name="intent" value="confirm-decline" size="lg" disabled={pending}>
                {CONFIRM_DECLINE_LABEL}
              </Button>
              <Button asChild size="lg" variant="outline">
                <Link to={`/supplement/${supplement.id}`} reloadDocument>
                  Revenir au supplément
                </Link>
              </Button>
            </div>
          </Form>
        ) : supplement.status === 'awaiting_customer' ? (
          <Form method="post" className="flex flex-col gap-3 sm:flex-row" {...getFormProps(form)}>
            <Button type="submit" name="intent" value="pay" size="lg" disabled={pending}>
              {PAY_LABEL}
            </Button>
            <Button type="submit" name="intent" value="decline" size="lg" variant="outline" disabled={pending}>
              {DECLINE_LABEL}
            </Button>
          </Form>
        ) : null}
        {supplement.status === 'paid' ? (
          <div role="status" className="flex items-start gap-3">
            <CircleCheckIcon className="mt-0.5 size-6 shrink-0 text-success" aria-hidden="true" />
            <div className="flex flex-col gap-1">
              <p className="font-semibold">Supplément payé</p>
              {supplement.invoiceNumber ? (
                <Link className="text-primary underline" reloadDocument to={`/supplement/${supplement.id}/facture`}>
                  Voir la facture {supplement.invoiceNumber}
                </Link>
              ) : null}
            </div>
          </div>
        ) : null}
        {supplement.status === 'declined' ? (
          <p role="status">
            {supplement.decision === 'return_extra'
              ? 'Supplément refusé : les originaux en plus vous seront retournés sans être numérisés.'
              : 'Supplément refusé : nous numérisons ce que vous avez déjà payé.'}
          </p>
        ) : null}
      </div>
    </section>
  );
}
