import { isPaUsable } from '~/domain/einvoicing/pa-config';
import { depositFlow, findFlowByTrackingId } from '../einvoicing/pa-client.server';
import { loadPaConfig } from '../einvoicing/pa-config.server';
import { readMailHold } from '../email/mail-hold.server';

/*
 * How a transmission reaches the plateforme agréée (docs/e-reporting.md « Sending »). The PA's
 * client deposits a flow (AFNOR XP Z12-013 « deposit a flow ») and answers its flow id; this module
 * only names that shape, so that e-reporting never speaks HTTP itself and tests give their own.
 */

export interface FlowFile {
  name: string;
  content: Buffer;
  /** The flow's syntax as the PA knows it (`FRR` for an e-reporting report). */
  syntax: string;
  profile?: string;
  /** flowInfo.processingRule: `B2C` for the consumer sales and payments. */
  processingRule: 'B2C';
  /**
   * The transmission's id, the same on every attempt (flowInfo.trackingId): a deposit that reached
   * the PA though its answer was lost is recognised by it, not deposited twice.
   */
  trackingId: string;
}

/** Deposits one file; throws when the platform refuses it or cannot be reached. */
export type FlowSender = (file: FlowFile) => Promise<{ flowId: string }>;

/**
 * The sender of the configured plateforme agréée (einvoicing/pa-client.server.ts `depositFlow`,
 * bound to its saved settings), or null when none is usable: the reports are then exported as
 * files, for the operator to deposit. A restored or copied database holding its outgoing messages
 * sends nothing either (email/mail-hold.server.ts): a copy must not report the real shop's sales.
 * A transmission tried again is first looked up by its tracking id, so that a deposit whose answer
 * was lost is not made twice.
 */
export async function configuredFlowSender(): Promise<FlowSender | null> {
  if (await readMailHold()) return null;
  const config = await loadPaConfig();
  if (!isPaUsable(config)) return null;
  return async (file) => {
    const already = await findFlowByTrackingId(file.trackingId, config);
    if (already) return { flowId: already.flowId };
    const flowId = await depositFlow(
      {
        file: file.content,
        fileName: file.name,
        syntax: 'FRR',
        processingRule: file.processingRule,
        trackingId: file.trackingId,
      },
      { config },
    );
    return { flowId };
  };
}
