import { PA_STATUS_LABELS, paStatusLabel } from './pa-statuses';

/*
 * What the shop sends with a flow on the AFNOR XP Z12-013 Flow Service (POST /v1/flows, a
 * multipart body: `flowInfo` JSON and `file`), and the CDAR lifecycle messages it writes and reads
 * (docs/plateforme-agreee.md says what was confirmed of the standard and what was not). Pure.
 */

/** flowInfo.flowSyntax: the syntax of the deposited file. */
export const FLOW_SYNTAXES = ['CII', 'UBL', 'Factur-X', 'CDAR', 'FRR'] as const;
export type FlowSyntax = (typeof FLOW_SYNTAXES)[number];

/** flowInfo.flowProfile. */
export const FLOW_PROFILES = ['Basic', 'CIUS', 'Extended-CTC-FR'] as const;
export type FlowProfile = (typeof FLOW_PROFILES)[number];

/** flowInfo.processingRule: B2B e-invoicing, or one of the e-reporting rules. */
export const PROCESSING_RULES = ['B2B', 'B2BInt', 'B2C', 'OutOfScope', 'ArchiveOnly', 'NotApplicable'] as const;
export type ProcessingRule = (typeof PROCESSING_RULES)[number];

export interface FlowInfo {
  trackingId: string;
  name: string;
  flowSyntax: FlowSyntax;
  flowProfile?: FlowProfile;
  processingRule?: ProcessingRule;
  /** Hex SHA-256 of the file: the PA checks it on receipt. */
  sha256?: string;
}

/** Only what the standard allows in a file name sent to a PA (no path, no control character). */
export function flowFileName(name: string): string {
  const cleaned = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/^[._]+/, '');
  return (cleaned || 'flow').slice(0, 200);
}

/** The flowInfo of a deposit: the name cleaned, every field the standard names, none it does not. */
export function buildFlowInfo(input: {
  trackingId: string;
  name: string;
  syntax: FlowSyntax;
  profile?: FlowProfile | null;
  processingRule?: ProcessingRule | null;
  sha256?: string | null;
}): FlowInfo {
  if (!(FLOW_SYNTAXES as readonly string[]).includes(input.syntax))
    throw new Error(`unknown flowSyntax ${input.syntax}`);
  if (input.trackingId.trim() === '') throw new Error('a flow needs a trackingId');
  return {
    trackingId: input.trackingId,
    name: flowFileName(input.name),
    flowSyntax: input.syntax,
    ...(input.profile ? { flowProfile: input.profile } : {}),
    ...(input.processingRule ? { processingRule: input.processingRule } : {}),
    ...(input.sha256 ? { sha256: input.sha256 } : {}),
  };
}

// --- CDAR lifecycle messages -------------------------------------------------------------------

const RSM = 'urn:un:unece:uncefact:data:standard:CrossDomainAcknowledgementAndResponse:100';
const RAM = 'urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100';

function xml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function cdarDateTime(date: Date): string {
  // Format 204 (CCYYMMDDHHMMSS), UTC.
  return date.toISOString().replace(/[-:T]/g, '').slice(0, 14);
}

export interface StatusMessage {
  /** The message's own id. */
  id: string;
  issuedAt: Date;
  /** The invoice it is about: its number and issue date, and its seller's SIREN. */
  invoiceNumber: string;
  invoiceIssuedAt: Date;
  sellerSiren: string;
  buyerSiren: string | null;
  code: number;
  reason?: string | null;
  /** 212 « Encaissée »: the amount received (cents, including VAT) and when. */
  amountCents?: number | null;
  paidAt?: Date | null;
}

function euros(cents: number): string {
  return (cents / 100).toFixed(2);
}

/**
 * A CDAR message carrying one lifecycle status of one invoice (a simplified D22B
 * CrossDomainAcknowledgementAndResponse: see docs/plateforme-agreee.md).
 */
export function buildStatusMessage(message: StatusMessage): string {
  const reason = message.reason ? `<ram:Reason>${xml(message.reason)}</ram:Reason>` : '';
  const amount =
    message.amountCents !== null && message.amountCents !== undefined
      ? `<ram:SpecifiedDocumentCharacteristic><ram:TypeCode>MEN</ram:TypeCode><ram:ValueAmount currencyID="EUR">${euros(message.amountCents)}</ram:ValueAmount>${
          message.paidAt
            ? `<ram:ValueDateTime><udt:DateTimeString format="102">${cdarDateTime(message.paidAt).slice(0, 8)}</udt:DateTimeString></ram:ValueDateTime>`
            : ''
        }</ram:SpecifiedDocumentCharacteristic>`
      : '';
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<rsm:CrossDomainAcknowledgementAndResponse xmlns:rsm="${RSM}" xmlns:ram="${RAM}" xmlns:udt="urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100">`,
    '<rsm:ExchangedDocumentContext><ram:GuidelineSpecifiedDocumentContextParameter><ram:ID>urn.cpro.gouv.fr:1p0:CDV:invoice</ram:ID></ram:GuidelineSpecifiedDocumentContextParameter></rsm:ExchangedDocumentContext>',
    `<rsm:ExchangedDocument><ram:ID>${xml(message.id)}</ram:ID><ram:TypeCode>23</ram:TypeCode><ram:IssueDateTime><udt:DateTimeString format="204">${cdarDateTime(message.issuedAt)}</udt:DateTimeString></ram:IssueDateTime>`,
    `<ram:SenderTradeParty><ram:GlobalID schemeID="0002">${xml(message.sellerSiren)}</ram:GlobalID><ram:RoleCode>SE</ram:RoleCode></ram:SenderTradeParty>`,
    message.buyerSiren
      ? `<ram:RecipientTradeParty><ram:GlobalID schemeID="0002">${xml(message.buyerSiren)}</ram:GlobalID><ram:RoleCode>BY</ram:RoleCode></ram:RecipientTradeParty>`
      : '',
    '</rsm:ExchangedDocument>',
    '<rsm:AcknowledgementDocument>',
    `<ram:IssueDateTime><udt:DateTimeString format="204">${cdarDateTime(message.issuedAt)}</udt:DateTimeString></ram:IssueDateTime>`,
    '<ram:ReferenceReferencedDocument>',
    `<ram:IssuerAssignedID>${xml(message.invoiceNumber)}</ram:IssuerAssignedID>`,
    `<ram:StatusCode>${message.code}</ram:StatusCode>`,
    `<ram:FormattedIssueDateTime><udt:DateTimeString format="102">${cdarDateTime(message.invoiceIssuedAt).slice(0, 8)}</udt:DateTimeString></ram:FormattedIssueDateTime>`,
    `<ram:ProcessConditionCode>${message.code}</ram:ProcessConditionCode>`,
    `<ram:ProcessCondition>${xml(paStatusLabel(message.code))}</ram:ProcessCondition>`,
    reason ? `<ram:SpecifiedDocumentStatus>${reason}</ram:SpecifiedDocumentStatus>` : '',
    amount,
    '</ram:ReferenceReferencedDocument>',
    '</rsm:AcknowledgementDocument>',
    '</rsm:CrossDomainAcknowledgementAndResponse>',
  ].join('\n');
}

export interface ReadStatus {
  invoiceNumber: string;
  code: number;
  reason: string | null;
  amountCents: number | null;
}

function unescapeXml(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');
}

function element(source: string, name: string): string | null {
  const match = new RegExp(`<(?:\\w+:)?${name}(?:\\s[^>]*)?>([\\s\\S]*?)</(?:\\w+:)?${name}>`).exec(source);
  return match?.[1] !== undefined ? unescapeXml(match[1].trim()) : null;
}

/**
 * The statuses a CDAR message carries, one per referenced document (a PA may group several).
 * Reads the referenced invoice's number and the status code (ProcessConditionCode, else
 * StatusCode), the reason when given. A message without a known status yields nothing.
 */
export function readStatusMessage(source: string): ReadStatus[] {
  const blocks = source.match(
    /<(?:\w+:)?ReferenceReferencedDocument(?:\s[^>]*)?>[\s\S]*?<\/(?:\w+:)?ReferenceReferencedDocument>/g,
  );
  const found: ReadStatus[] = [];
  for (const block of blocks ?? []) {
    const invoiceNumber = element(block, 'IssuerAssignedID');
    const code = Number(element(block, 'ProcessConditionCode') ?? element(block, 'StatusCode'));
    if (!invoiceNumber || !Number.isInteger(code) || !(code in PA_STATUS_LABELS)) continue;
    const amount = element(block, 'ValueAmount');
    found.push({
      invoiceNumber,
      code,
      reason: element(block, 'Reason'),
      amountCents: amount !== null && /^-?\d+(\.\d+)?$/.test(amount) ? Math.round(Number(amount) * 100) : null,
    });
  }
  return found;
}
