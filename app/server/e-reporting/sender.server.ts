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
 * The sender of the configured plateforme agréée, or null when none is configured: the reports are
 * then exported as files, for the operator to deposit. No PA client exists in this module: this is
 * the one place where the PA client's `depositFlow` (einvoicing/pa-client.server.ts) is bound to
 * its saved settings, e.g.:
 *
 *   const config = await loadPaConfig();
 *   if (!isPaUsable(config)) return null;
 *   return async (file) => ({
 *     flowId: await depositFlow(
 *       { file: file.content, fileName: file.name, syntax: 'FRR', processingRule: file.processingRule,
 *         trackingId: file.trackingId },
 *       { config },
 *     ),
 *   });
 */
export async function configuredFlowSender(): Promise<FlowSender | null> {
  return null;
}
