import { z } from 'zod';
import '../zod-config';

/*
 * « Confirmer la rétractation » (/retractation/:orderId) posts no field: the button is the request.
 * Its schema is empty; the refusals (too late, already done) are the server's, as the form's own
 * errors. Kept apart from withdrawal.ts, which pages import, so that they do not load zod.
 */

export const withdrawalRequestSchema = z.object({});
