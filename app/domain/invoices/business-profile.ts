import { z } from 'zod';
import '../zod-config';
import { businessFormOf, parseBusinessBuyer } from './business-buyer';
import type { BusinessBuyer } from './snapshot';

/*
 * The profile's business defaults (docs/invoicing.md), checked by the rules of business-buyer.ts.
 * Apart from it so that the pages importing the buyer's fields and limits ship no zod.
 */

/**
 * The profile's « Facturation professionnelle » form (its fields named as the buyer's:
 * `companyName`, `siren`…), for Conform's parseWithZod: the buyer when every field is right, else
 * each French message of parseBusinessBuyer on its field. The engagement number is an order's,
 * asked at checkout: the profile keeps none.
 */
export const businessProfileSchema = z.looseObject({}).transform((posted, ctx): BusinessBuyer => {
  const parsed = parseBusinessBuyer({ ...businessFormOf(posted), engagementNumber: '' });
  if (parsed.ok) return parsed.buyer;
  for (const [field, message] of Object.entries(parsed.errors)) {
    ctx.addIssue({ code: 'custom', path: [field], message });
  }
  return z.NEVER;
});
