import { ArrowLeftIcon } from 'lucide-react';
import { data } from 'react-router';
import { ExtraCopyForm, FieldError, inputClass } from '~/components/copies/extra-copy-form';
import { ShareEnded, ShareLimited } from '~/components/sharing/share-refusals';
import { sharePath, shareTitle } from '~/domain/files/sharing';
import { NBSP } from '~/domain/format';
import {
  EXTRA_COPY_MESSAGES,
  type ExtraCopyFormErrors,
  type ExtraCopyFormValues,
  parseExtraCopyForm,
  SHARE_COPY_MESSAGES,
} from '~/domain/orders/extra-copies';
import { guestInfoSchema } from '~/domain/orders/guest-info';
import { loadCopyOffer, redirectToCheckout } from '~/server/copies/extra-copies.server';
import { listShareFiles, startShareCopyOrder } from '~/server/copies/share-copies.server';
import { lookUpShare, type OpenShare } from '~/server/files/sharing.server';
import { readFormData } from '~/server/form-data.server';
import type { Route } from './+types/share-copy';

/*
 * /partage/{token}/copie (decisions 028 and 029): a relative
 * holding the share's link orders USB keys or DVDs of the shared files, for themselves or sent to
 * another relative with a gift message. The same form as the owner's copies page (ExtraCopyForm,
 * parseExtraCopyForm), restricted to the share's selection (share-copies.server.ts), plus the
 * relative's e-mail: they buy as a guest, the checkout asks their address and name like any guest
 * order's. Nothing of the customer's order or account is shown. The same refusals as the share's
 * page (410, 404, 429); a view-only share offers no copy (decision 028): a copy is the files.
 */

export const meta: Route.MetaFunction = ({ data: loaded }) => [
  {
    title:
      loaded?.state === 'open'
        ? `Commander une copie · ${shareTitle(loaded.sharerName)} | Soovenirs`
        : loaded?.state === 'ended'
          ? 'Ce partage a pris fin | Soovenirs'
          : 'Partage | Soovenirs',
  },
  { name: 'robots', content: 'noindex' },
  { name: 'referrer', content: 'no-referrer' },
];

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' });

type Opened = { state: 'open'; share: OpenShare } | { state: 'ended' } | { state: 'limited' };

/** The share behind the token, or the page's refusal (like /partage/{token}). */
async function openShare(request: Request, token: string): Promise<Opened> {
  const lookup = await lookUpShare(request, token);
  if (lookup.kind === 'unknown') throw data(null, { status: 404 });
  if (lookup.kind === 'limited') return { state: 'limited' };
  if (lookup.kind === 'ended') return { state: 'ended' };
  return { state: 'open', share: lookup.share };
}

function refusal(opened: Exclude<Opened, { state: 'open' }>) {
  if (opened.state === 'limited') {
    return data({ state: 'limited' as const }, { status: 429, headers: { 'Retry-After': '600' } });
  }
  return data({ state: 'ended' as const }, { status: 410 });
}

export async function loader({ request, params }: Route.LoaderArgs) {
  const opened = await openShare(request, params.token);
  if (opened.state !== 'open') return refusal(opened);
  const { share } = opened;
  if (!share.allowDownloads) {
    return data({ state: 'viewOnly' as const, token: params.token, sharerName: share.sharerName }, { status: 403 });
  }
  const [offer, files] = await Promise.all([
    // Only the prices: the source order's retention is none of the relative's business.
    loadCopyOffer({ filesExpireAt: null, filesDeletedAt: null }),
    listShareFiles(share),
  ]);
  return {
    state: 'open' as const,
    token: params.token,
    sharerName: share.sharerName,
    offer: {
      usbPriceCents: offer.usbPriceCents,
      discPriceCents: offer.discPriceCents,
      shippingPriceCents: offer.shippingPriceCents,
    },
    files,
  };
}

interface ActionData {
  error: string;
  errors: ExtraCopyFormErrors;
  values: ExtraCopyFormValues;
  email: string;
  emailError?: string;
}

export async function action({ request, params }: Route.ActionArgs) {
  const opened = await openShare(request, params.token);
  if (opened.state !== 'open') return refusal(opened);
  const { share } = opened;
  if (!share.allowDownloads) throw data(null, { status: 403 });
  const form = await readFormData(request);
  const parsed = parseExtraCopyForm(form);
  const emailRaw = typeof form.get('email') === 'string' ? String(form.get('email')).trim() : '';
  const email = guestInfoSchema.shape.email.safeParse(emailRaw);
  const emailError = email.success ? undefined : SHARE_COPY_MESSAGES.email;
  if (!parsed.ok || !email.success) {
    return data<ActionData>({
      error: EXTRA_COPY_MESSAGES.invalid,
      errors: parsed.ok ? {} : parsed.errors,
      values: parsed.values,
      email: emailRaw,
      emailError,
    });
  }
  const started = await startShareCopyOrder({ share, choice: parsed.value, email: email.data });
  if (!started.ok) {
    return data<ActionData>({
      error: started.message,
      errors: { files: started.message },
      values: parsed.values,
      email: emailRaw,
    });
  }
  return redirectToCheckout(started);
}

export default function ShareCopy({ loaderData, actionData }: Route.ComponentProps) {
  if (loaderData.state === 'ended') return <ShareEnded />;
  if (loaderData.state === 'limited') return <ShareLimited />;
  const answer = actionData && 'error' in actionData ? actionData : null;
  const back = (
    <a
      href={sharePath(loaderData.token)}
      className="inline-flex w-fit items-center gap-1.5 text-primary text-sm underline-offset-4 hover:underline"
    >
      <ArrowLeftIcon className="size-4" aria-hidden="true" />
      Retour aux souvenirs
    </a>
  );
  if (loaderData.state === 'viewOnly') {
    return (
      <section className="mx-auto flex w-full max-w-2xl flex-1 flex-col items-start gap-5 px-4 py-16 sm:px-6">
        {back}
        <h1 className="text-title">Pas de copie pour ce partage</h1>
        <p className="text-lg text-muted-foreground">
          {loaderData.sharerName} a partagé ces souvenirs pour les regarder en ligne. Pour en recevoir une copie,
          demandez-lui un partage qui permet aussi de les télécharger.
        </p>
      </section>
    );
  }
  const { sharerName, offer, files } = loaderData;
  return (
    <section
      aria-labelledby="share-copy-title"
      className="mx-auto flex w-full max-w-4xl flex-1 flex-col gap-8 px-4 py-10 sm:px-6"
    >
      {back}
      <div className="flex flex-col gap-2">
        <p className="font-semibold text-sepia text-sm uppercase tracking-wider">{shareTitle(sharerName)}</p>
        <h1 id="share-copy-title" className="text-title">
          Commander une copie
        </h1>
        <p className="text-muted-foreground">
          Recevez les souvenirs que {sharerName} partage avec vous sur une clé USB ou un DVD, chez vous ou chez un
          proche. Vous payez votre commande{NBSP}; elle vous appartient.
        </p>
      </div>
      {answer ? (
        <p role="alert" className="text-destructive">
          {answer.error}
        </p>
      ) : null}
      {files.length === 0 ? (
        <p className="rounded-lg border border-border bg-card p-5">Ce partage ne contient plus aucun fichier.</p>
      ) : (
        <ExtraCopyForm files={files} offer={offer} values={answer?.values} errors={answer?.errors}>
          <div className="flex max-w-md flex-col gap-1.5">
            <label htmlFor="email" className="font-semibold">
              Votre adresse e-mail
            </label>
            <input
              id="email"
              name="email"
              type="email"
              autoComplete="email"
              aria-required="true"
              defaultValue={answer?.email ?? ''}
              aria-invalid={answer?.emailError ? true : undefined}
              aria-describedby={answer?.emailError ? 'email-error' : 'email-help'}
              className={inputClass}
            />
            <FieldError id="email-error" message={answer?.emailError} />
            <p id="email-help" className="text-muted-foreground text-sm">
              Pour la confirmation et le suivi de votre commande. Votre nom et votre adresse sont demandés au paiement.
            </p>
          </div>
        </ExtraCopyForm>
      )}
    </section>
  );
}
