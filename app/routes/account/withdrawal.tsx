import { getFormProps, type SubmissionResult, useForm } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod/v4';
import { ArrowLeftIcon } from 'lucide-react';
import { data, Form, Link, redirect, useNavigation } from 'react-router';
import { toWithdrawalView } from '~/components/account/withdrawal-view';
import { FormAlert } from '~/components/auth/form-alert';
import { type ServerToast, ServerToastFallback, useServerToast } from '~/components/auth/toast-messages';
import { Alert } from '~/components/ui/alert';
import { Button } from '~/components/ui/button';
import { Spinner } from '~/components/ui/spinner';
import { useHydrated } from '~/components/use-hydrated';
import { itemsSummary } from '~/domain/account/order-details';
import { WITHDRAWAL_MESSAGES, WITHDRAWAL_PERIOD_DAYS, withdrawalState } from '~/domain/account/withdrawal';
import { withdrawalRequestSchema } from '~/domain/account/withdrawal-request';
import { formatDateFr, formatDateTimeFr, formatEurosFromCents } from '~/domain/format';
import { cookieHeaders } from '~/server/account/auth-calls.server';
import { consumeFlash, flashCookie } from '~/server/account/cookies.server';
import { readFormData } from '~/server/form-data.server';
import { log } from '~/server/log.server';
import { accessFromLink, getOrderForViewer } from '~/server/orders/access.server';
import { withdrawalWords, withdrawFromOrder } from '~/server/orders/withdrawal.server';
import { giftCardWithdrawalFacts } from '~/server/vouchers/gift-cards.server';
import type { Route } from './+types/withdrawal';

/*
 * /retractation/:orderId, the confirmation step of "Renoncer au contrat ici" (Code de la
 * consommation L221-18; docs/product.md, « Compliance »): the order in short, what withdrawing means, and the
 * button "Confirmer la rétractation". Open to the order's owner and to the guest holding the order's
 * access token; the back office sees the request in the order's history. Linked from /profile,
 * /confirmation and the order e-mail.
 */

export const CONFIRM_LABEL = 'Confirmer la rétractation';

export const meta: Route.MetaFunction = () => [
  { title: 'Rétractation | Soovenirs' },
  { name: 'robots', content: 'noindex' },
];

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' });

async function withdrawableOrder(request: Request, orderId: string) {
  const found = await getOrderForViewer(request, orderId);
  // An administrator may look at any order but does not withdraw on a customer's behalf.
  if (!found || found.viewer === 'admin') throw data(null, { status: 404 });
  return found;
}

export async function loader({ request, params }: Route.LoaderArgs) {
  const fromLink = await accessFromLink(request, params.orderId);
  if (fromLink) throw redirect(fromLink.cleanUrl, { headers: cookieHeaders(fromLink.setCookie || null) });
  const { order, viewer } = await withdrawableOrder(request, params.orderId);
  const { flash, setCookie } = consumeFlash(request, `/retractation/${order.id}`);
  return data(
    {
      viewer,
      order: {
        id: order.id,
        number: order.number,
        createdAt: order.createdAt,
        totalPriceCents: order.totalPriceCents,
        items: order.items.map(({ type, quantity }) => ({ type, quantity })),
      },
      // What withdrawing means for this order: the lifecycle's case, in words.
      withdrawal: toWithdrawalView(
        withdrawalState({ ...order, ...(await giftCardWithdrawalFacts(order.id)) }),
        await withdrawalWords(order.id),
      ),
      flash: flash as ServerToast | null,
    },
    { headers: cookieHeaders(setCookie) },
  );
}

export async function action({ request, params }: Route.ActionArgs) {
  const { order, user } = await withdrawableOrder(request, params.orderId);
  const submission = parseWithZod(await readFormData(request), { schema: withdrawalRequestSchema });
  // A refusal (too late, already done) is the form's answer, with status 200 like any form result.
  const refuse = (message: string): { submission: SubmissionResult<string[]> } => ({
    submission: submission.reply({ formErrors: [message] }),
  });
  let result: Awaited<ReturnType<typeof withdrawFromOrder>>;
  try {
    result = await withdrawFromOrder({
      orderId: order.id,
      actor: user && user.id === order.userId ? user.id : 'guest',
    });
  } catch (error) {
    log.error({ err: error, orderId: order.id }, 'the withdrawal could not be recorded');
    return refuse(WITHDRAWAL_MESSAGES.failed);
  }
  if (!result.ok) return refuse(result.message);
  const page = `/retractation/${order.id}`;
  throw redirect(page, { headers: cookieHeaders(flashCookie('withdrawal-recorded', page)) });
}

export default function Withdrawal({ loaderData, actionData }: Route.ComponentProps) {
  const hydrated = useHydrated();
  const { order, withdrawal, viewer, flash } = loaderData;
  const navigation = useNavigation();
  const pending = navigation.state !== 'idle' && navigation.formMethod === 'POST';
  const [form] = useForm({ id: 'withdrawal', lastResult: actionData?.submission });
  useServerToast(flash);
  const back = viewer === 'owner' ? '/profile' : `/confirmation?orderId=${order.id}`;

  return (
    <section
      aria-labelledby="withdrawal-page-title"
      data-hydrated={hydrated}
      className="mx-auto flex w-full max-w-2xl flex-1 flex-col gap-6 px-4 py-10 sm:px-6"
    >
      <ServerToastFallback value={flash} />
      <Link
        to={back}
        className="inline-flex w-fit items-center gap-1.5 text-primary text-sm underline-offset-4 hover:underline"
      >
        <ArrowLeftIcon className="size-4" aria-hidden="true" />
        {viewer === 'owner' ? 'Retour à mon compte' : 'Retour à la commande'}
      </Link>
      <div className="flex flex-col gap-2">
        <h1 id="withdrawal-page-title" className="text-title">
          Renoncer au contrat
        </h1>
        <p className="text-muted-foreground">
          Commande {order.number} du {formatDateFr(order.createdAt)} · {itemsSummary(order.items)} ·{' '}
          {formatEurosFromCents(order.totalPriceCents)}
        </p>
      </div>

      <div className="flex flex-col gap-4 rounded-xl border border-border bg-card p-6 shadow-sm">
        <FormAlert id={form.errorId} errors={form.errors} />
        {withdrawal.kind === 'open' ? (
          <>
            <p>
              Conformément au Code de la consommation, vous disposez de {WITHDRAWAL_PERIOD_DAYS} jours pour vous
              rétracter de cette commande, sans avoir à donner de motif : jusqu’au{' '}
              <strong>{formatDateFr(withdrawal.lastDay)}</strong> inclus.
            </p>
            {withdrawal.words ? (
              <div className="flex flex-col gap-2 text-sm" data-testid="withdrawal-outcome">
                <p>{withdrawal.words.money}</p>
                <p>{withdrawal.words.originals}</p>
              </div>
            ) : null}
            <p className="text-muted-foreground text-sm">Vous recevrez un accusé de réception daté par email.</p>
            <Form method="post" {...getFormProps(form)}>
              <Button type="submit" variant="destructive" size="lg" disabled={pending}>
                {pending ? <Spinner label="Enregistrement…" className="[&_svg]:text-destructive-foreground" /> : null}
                {CONFIRM_LABEL}
              </Button>
            </Form>
          </>
        ) : null}
        {withdrawal.kind === 'withdrawn' ? (
          <Alert variant="success" title="Votre rétractation est enregistrée.">
            <p>
              Demande reçue le {formatDateTimeFr(withdrawal.withdrawnAt)}. Un accusé de réception vous a été envoyé par
              email.
            </p>
            {withdrawal.words ? (
              <>
                <p>{withdrawal.words.money}</p>
                <p>{withdrawal.words.originals}</p>
              </>
            ) : null}
          </Alert>
        ) : null}
        {withdrawal.kind === 'expired' ? <Alert>{WITHDRAWAL_MESSAGES.expired}</Alert> : null}
        {withdrawal.kind === 'canceled' ? <Alert>{WITHDRAWAL_MESSAGES.canceled}</Alert> : null}
        {withdrawal.kind === 'draft' ? <Alert>{WITHDRAWAL_MESSAGES.draft}</Alert> : null}
        {withdrawal.kind === 'performed' ? <Alert>{WITHDRAWAL_MESSAGES.performed}</Alert> : null}
      </div>
    </section>
  );
}
