import { data, redirect } from 'react-router';
import { GiftCardsPage } from '~/components/admin/gift-cards-page';
import { TabError } from '~/components/admin/tab-error';
import { parsePage, parseSearch, withParams } from '~/domain/admin/list-params';
import { GIFT_CARD_INTENTS } from '~/domain/staff/access-rules';
import { can } from '~/domain/staff/permissions';
import {
  GIFT_CARD_OFFICE_MESSAGES,
  type GiftCardActionData,
  type GiftCardIntent,
  parseGiftCardSearch,
} from '~/domain/vouchers/gift-card-office';
import { requireIntent, requireStaff } from '~/server/admin/access.server';
import {
  cancelAndRefundGiftCard,
  extendGiftCard,
  findGiftCardByCode,
  listGiftCards,
  resendGiftCard,
} from '~/server/admin/gift-cards.server';
import { readFormData } from '~/server/form-data.server';
import type { Route } from './+types/gift-cards';

/*
 * « Cartes cadeaux » (decision 037): the cards, found by their code, the last four symbols of it,
 * or the recipient's or the buyer's name or e-mail, a page at a time; each with its ledger, and
 * « Renvoyer la carte », « Prolonger », « Annuler et rembourser ». Plain forms with an `intent`:
 * everything works before JavaScript. The search is posted: a whole code is worth money, so it is
 * looked up here and the page shows the card by its id (`?carte=`), never with the code in an
 * address (nor in a proxy's access log, nor in the browser's history).
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const PATH = '/admin/cartes-cadeaux';

export function meta() {
  return [{ title: 'Cartes cadeaux — Soovenirs' }];
}

export async function loader({ request }: Route.LoaderArgs) {
  const staff = await requireStaff(request, 'giftcards');
  const search = new URL(request.url).searchParams;
  const carte = search.get('carte');
  const cardId = carte && UUID.test(carte) ? carte : null;
  const q = cardId ? '' : parseSearch(search.get('q'));
  const page = parsePage(search.get('page'));
  const list = await listGiftCards({ q, cardId, page });
  return {
    q,
    cardId,
    search: search.toString(),
    list,
    mayRefund: can(staff.role, 'refunds'),
  };
}

// Answers a form can correct are 200 with `ok: false`: a 4xx is logged as an error by browsers.
export async function action({ request }: Route.ActionArgs) {
  const staff = await requireStaff(request, 'giftcards');
  const form = await readFormData(request);
  const intent = form.get('intent');
  // The intent alone decides who may send it (domain/staff/access-rules.ts); unknown intents are refused.
  requireIntent(request, staff, GIFT_CARD_INTENTS, intent);
  const field = (name: string) => {
    const value = form.get(name);
    return typeof value === 'string' ? value : '';
  };
  const answer = (body: GiftCardActionData) => data(body);

  if (intent === 'search') {
    const q = parseSearch(field('q'));
    const search = parseGiftCardSearch(q);
    if (search.kind === 'code') {
      const cardId = await findGiftCardByCode(search.code);
      if (!cardId) return answer({ intent, ok: false, message: GIFT_CARD_OFFICE_MESSAGES.noCode });
      return redirect(`${PATH}?${new URLSearchParams({ carte: cardId })}`);
    }
    if (search.kind === 'bad-code') return answer({ intent, ok: false, message: GIFT_CARD_OFFICE_MESSAGES.badCode });
    return redirect(`${PATH}${withParams(new URLSearchParams(), { q })}`.replace(/\?$/, ''));
  }

  const cardId = field('cardId');
  const cardIntent = intent as Exclude<GiftCardIntent, 'search'>;
  if (!UUID.test(cardId)) return answer({ intent: cardIntent, ok: false, message: GIFT_CARD_OFFICE_MESSAGES.notFound });
  if (intent === 'resend') return answer({ intent, cardId, ...(await resendGiftCard({ cardId, actor: staff.id })) });
  if (intent === 'extend') {
    const result = await extendGiftCard({ cardId, day: field('expiresOn'), actor: staff.id });
    return answer({ intent, cardId, ...result });
  }
  if (field('confirmed') !== '1') {
    return answer({ intent: 'cancel', cardId, ok: false, message: GIFT_CARD_OFFICE_MESSAGES.confirmRequired });
  }
  const result = await cancelAndRefundGiftCard({ cardId, actor: staff.id, refundRight: can(staff.role, 'refunds') });
  return answer({ intent: 'cancel', cardId, ...result });
}

export default function GiftCardsTab({ loaderData, actionData }: Route.ComponentProps) {
  return <GiftCardsPage {...loaderData} actionData={actionData ?? null} />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <TabError error={error} />;
}
