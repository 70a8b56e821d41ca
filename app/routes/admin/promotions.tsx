import { parseWithZod } from '@conform-to/zod/v4';
import { PromotionsPage } from '~/components/admin/promotions-page';
import { TabError } from '~/components/admin/tab-error';
import { dayKey, parisDay } from '~/domain/calendar';
import { PROMOTION_INTENTS } from '~/domain/staff/access-rules';
import { promotionFormSchema } from '~/domain/vouchers/promotion-form';
import {
  PROMOTION_OFFICE_MESSAGES,
  type PromotionActionData,
  promotionOfficeRow,
  promotionSupportOptions,
} from '~/domain/vouchers/promotion-office';
import { requireIntent, requireStaff } from '~/server/admin/access.server';
import { readFormData } from '~/server/form-data.server';
import { getActivePriceList } from '~/server/pricing/price-lists.server';
import { createPromotion, listPromotions, setPromotionPaused } from '~/server/vouchers/promotions.server';
import type { Route } from './+types/promotions';

/*
 * « Codes promo » (decision 038): every code with its terms, its state, its uses and what it
 * brought; a form to create one; « Suspendre » and « Réactiver » on each. Plain forms with an
 * `intent`: everything works before JavaScript. Who may do it is the door's table
 * (`promotions`, PROMOTION_INTENTS); what a code may be is the domain's form schema, and the
 * writes (journaled) are the server's promotion module's.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function meta() {
  return [{ title: 'Codes promo — Soovenirs' }];
}

export async function loader({ request }: Route.LoaderArgs) {
  await requireStaff(request, 'promotions');
  const [codes, priceList] = await Promise.all([listPromotions(), getActivePriceList()]);
  const now = new Date();
  // Described with the active list's titles (a support's name on the shop today).
  return {
    rows: codes.map((code) => promotionOfficeRow(code, priceList.data, now)),
    supports: promotionSupportOptions(priceList.data),
    // The form's first day by default: today in Paris (the server's, so that the page hydrates alike).
    today: dayKey(parisDay(now)),
  };
}

// Answers a form can correct are 200 with `ok: false`: a 4xx is logged as an error by browsers.
export async function action({ request }: Route.ActionArgs): Promise<PromotionActionData> {
  const staff = await requireStaff(request, 'promotions');
  const form = await readFormData(request);
  const intent = form.get('intent');
  // The intent alone decides who may send it (domain/staff/access-rules.ts); unknown intents are refused.
  requireIntent(request, staff, PROMOTION_INTENTS, intent);

  if (intent === 'create') {
    // The schema reads the form's strings itself (empty fields, « on », French amounts and dates).
    const submission = parseWithZod(form, { schema: promotionFormSchema, disableAutoCoercion: true });
    if (submission.status !== 'success') {
      return { intent, ok: false, message: PROMOTION_OFFICE_MESSAGES.checkForm, submission: submission.reply() };
    }
    const created = await createPromotion(submission.value, staff.id);
    if (!created.ok) {
      return {
        intent,
        ok: false,
        message: PROMOTION_OFFICE_MESSAGES.checkForm,
        submission: submission.reply({ fieldErrors: { [created.field]: [created.message] } }),
      };
    }
    return {
      intent,
      ok: true,
      message: PROMOTION_OFFICE_MESSAGES.created(submission.value.code),
      submission: submission.reply({ resetForm: true }),
    };
  }

  const promotionId = form.get('promotionId');
  const paused = intent === 'pause';
  const answerIntent = paused ? 'pause' : 'resume';
  if (typeof promotionId !== 'string' || !UUID.test(promotionId)) {
    return { intent: answerIntent, ok: false, message: PROMOTION_OFFICE_MESSAGES.notFound };
  }
  const done = await setPromotionPaused(promotionId, paused, staff.id);
  if (!done) return { intent: answerIntent, promotionId, ok: false, message: PROMOTION_OFFICE_MESSAGES.notFound };
  const code = (await listPromotions()).find((row) => row.id === promotionId)?.terms.code ?? '';
  return {
    intent: answerIntent,
    promotionId,
    ok: true,
    message: paused ? PROMOTION_OFFICE_MESSAGES.paused(code) : PROMOTION_OFFICE_MESSAGES.resumed(code),
  };
}

export default function PromotionsTab({ loaderData, actionData }: Route.ComponentProps) {
  return <PromotionsPage {...loaderData} actionData={actionData ?? null} />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <TabError error={error} />;
}
