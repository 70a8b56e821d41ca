import type { SubmissionResult } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod/v4';
import { useEffect, useRef, useState } from 'react';
import { data, redirect, type ShouldRevalidateFunctionArgs, useLocation } from 'react-router';
import { ConfiguratorForm, PROMOTION_CODE_PARAM } from '~/components/configurator/configurator-form';
import { useLivePriceList } from '~/components/configurator/use-live-price-list';
import { PRIVATE_PAGE_CACHE_CONTROL, pageCacheHeaders, publicPageHeaders } from '~/domain/content/cache-control';
import { pageTitle, seoMeta } from '~/domain/content/seo';
import { configuratorPostSchema, selectionSchema } from '~/domain/pricing/configurator-form';
import { EMPTY_SELECTION, selectionToPayload } from '~/domain/pricing/selection';
import { MAX_PROMOTION_CODE_LENGTH, normalisePromotionCode } from '~/domain/vouchers/promotions';
import { getUser } from '~/server/auth/session.server';
import { siteOrigin } from '~/server/content/site.server';
import { readFormData } from '~/server/form-data.server';
import { createOrder, InvalidSelectionError, PriceListChangedError } from '~/server/orders/create-order.server';
import { redirectToCheckout } from '~/server/orders/order-response.server';
import { getActivePriceList } from '~/server/pricing/price-lists.server';
import { saveQuote } from '~/server/quotes/quotes.server';
import { announcedPromotion } from '~/server/vouchers/announced-promotion.server';
import type { Route } from './+types/configurator';

/*
 * /configurateur, "Estimer ma commande". The selection lives in the URL (GET form); the estimate
 * is computed by the same pure function in the browser (live) and on the server (before JavaScript
 * runs, and for every saved quote or order). `Commander` and `Enregistrer le devis` post the form:
 * the server validates it, prices it with the active price list and ignores any price it carries.
 */

export const PRICES_CHANGED_MESSAGE =
  'Les tarifs viennent d’être mis à jour\u202F: vérifiez le nouveau montant avant de continuer.';

/** Canonical and Open Graph tags like the site's pages; a selection in the URL is the same page. */
export function meta({ loaderData }: Route.MetaArgs) {
  const description =
    'Estimez en direct le prix de la numérisation de vos photos, diapositives, négatifs, cassettes et films\u00A0: supports, options, livraison.';
  if (!loaderData) return [{ title: pageTitle('Estimer ma commande') }, { name: 'description', content: description }];
  return seoMeta({ title: 'Estimer ma commande', description, path: '/configurateur', origin: loaderData.origin });
}

export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  // A newsletter's link may announce a promotion code (`?code=NOEL20`): not part of the selection.
  const typedCode = url.searchParams.get(PROMOTION_CODE_PARAM) ?? '';
  const selectionParams = new URLSearchParams(url.searchParams);
  selectionParams.delete(PROMOTION_CODE_PARAM);
  const [priceList, user] = await Promise.all([getActivePriceList(), typedCode ? getUser(request) : null]);
  const announced = typedCode ? await announcedPromotion(request, typedCode, new Date(), user?.id ?? null) : null;
  const hasSelection = [...selectionParams.keys()].length > 0;
  const submission = hasSelection
    ? parseWithZod(selectionParams, {
        schema: selectionSchema({ priceList: priceList.data }),
        disableAutoCoercion: true,
      })
    : null;
  return data(
    {
      origin: siteOrigin(),
      priceList: { version: priceList.version, data: priceList.data },
      payload: submission ? submission.payload : selectionToPayload(EMPTY_SELECTION),
      // Messages for a URL that does not describe a valid selection (a link typed by hand).
      result: submission && submission.status !== 'success' ? (submission.reply() as SubmissionResult<string[]>) : null,
      promotion: announced?.ok ? announced.promotion : null,
      promotionNotice: announced && !announced.ok ? announced.message : null,
    },
    {
      // The same page for every visitor (prices of the live list, the selection in the URL): public.
      // A code's answer is not: it changes when the code is paused, and an unknown one is counted.
      headers: typedCode ? { 'Cache-Control': PRIVATE_PAGE_CACHE_CONTROL } : pageCacheHeaders(request),
    },
  );
}

export const headers = publicPageHeaders;

export async function action({ request }: Route.ActionArgs) {
  const formData = await readFormData(request);
  const [user, priceList] = await Promise.all([getUser(request), getActivePriceList()]);
  const submission = parseWithZod(formData, {
    schema: configuratorPostSchema(priceList.data),
    disableAutoCoercion: true,
  });
  if (submission.status !== 'success') {
    return data({ result: submission.reply(), payload: submission.payload }, { status: 400 });
  }
  const { intent, selection, shownVersion } = submission.value;
  // The version the visitor was shown: ordering or saving at other prices would surprise them.
  const pricesChanged = () =>
    data(
      { result: submission.reply({ formErrors: [PRICES_CHANGED_MESSAGE] }), payload: submission.payload },
      { status: 409 },
    );
  if (shownVersion !== null && shownVersion !== priceList.version) return pricesChanged();

  try {
    if (intent === 'save') {
      const saved = await saveQuote({ selection, user });
      return redirect(saved.token ? `/devis/${saved.token}?enregistre=1` : `/mes-devis/${saved.id}?enregistre=1`);
    }
    const order = await createOrder({ selection, user, expectedPriceListVersion: shownVersion });
    // The code announced by the page fills the checkout's field; it is checked there again.
    const code = normalisePromotionCode(String(formData.get(PROMOTION_CODE_PARAM) ?? ''));
    return redirectToCheckout(order, code.slice(0, MAX_PROMOTION_CODE_LENGTH));
  } catch (error) {
    if (error instanceof PriceListChangedError) return pricesChanged();
    if (error instanceof InvalidSelectionError) {
      return data(
        { result: submission.reply({ fieldErrors: error.errors }), payload: submission.payload },
        { status: 400 },
      );
    }
    throw error;
  }
}

/** After a refusal because prices changed (409), load the new prices at once (React Router skips 4xx by default). */
export function shouldRevalidate({ actionStatus, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return actionStatus === 409 ? true : defaultShouldRevalidate;
}

export default function Configurator({ loaderData, actionData }: Route.ComponentProps) {
  const { priceList } = loaderData;
  const location = useLocation();
  useLivePriceList(priceList.version);

  // Say so when new prices arrive while the page is open.
  const firstVersion = useRef(priceList.version);
  const [pricesUpdated, setPricesUpdated] = useState(false);
  useEffect(() => {
    if (priceList.version !== firstVersion.current) setPricesUpdated(true);
  }, [priceList.version]);

  const refused = actionData?.result ?? null;
  return (
    <div className="mx-auto w-full max-w-7xl px-4 pt-10 pb-16 sm:px-6 lg:px-8">
      <header className="mb-8 flex max-w-3xl flex-col gap-3">
        <p className="font-semibold text-sepia text-sm uppercase tracking-wider">Devis en ligne</p>
        <h1 className="text-title">Estimer ma commande</h1>
        <p className="text-lg text-muted-foreground">
          Choisissez vos supports et vos options&#8239;: le prix s’affiche au fur et à mesure. Enregistrez votre devis
          pour plus tard, ou commandez directement.
        </p>
        {loaderData.promotionNotice ? (
          <p role="status" className="rounded-md bg-info-tint px-3 py-2 text-info-tint-foreground text-sm">
            {loaderData.promotionNotice}
          </p>
        ) : null}
      </header>
      <ConfiguratorForm
        // A new page (a link, back and forward) starts from its own URL; the live edits of this page
        // replace the URL without a navigation, so they keep the form as it is.
        key={location.key}
        priceList={priceList}
        payload={actionData?.payload ?? loaderData.payload}
        lastResult={refused ?? loaderData.result}
        pricesUpdated={pricesUpdated}
        promotion={loaderData.promotion}
      />
    </div>
  );
}
