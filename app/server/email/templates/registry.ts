import { render, toPlainText } from '@react-email/render';
import type { z } from 'zod';
import { frenchTypography } from '~/domain/format';
import { shopContactAddress } from '../shop-contact.server';
import { emailVerification, magicLink, passwordReset, welcome } from './account';
import { contactAcknowledgement, contactToShop } from './contact';
import { filesExpiring } from './files';
import { giftCard, giftCardCopy, giftCardExpiring } from './gift-cards';
import { labelReady, orderReady, orderShipped, originalsReceived } from './journey';
import { orderMessage } from './messages';
import {
  orderConfirmation,
  orderStatus,
  paymentReceived,
  paymentRejected,
  quoteSaved,
  withdrawalAcknowledgement,
} from './orders';
import { refundIbanRequest, refundIssued } from './refunds';
import { reviewOpen, reviewReminder } from './reviews';
import { shareInvitation } from './sharing';
import { staffInvitation } from './staff';
import { supplementPaid, supplementRequested } from './supplements';
import { custom, testEmail } from './system';
import type { EmailAttachment, TemplateDefinition } from './types';

/** Every e-mail the shop sends, by the name stored in email_outbox.template. */
export const EMAIL_TEMPLATES = {
  welcome,
  'password-reset': passwordReset,
  'magic-link': magicLink,
  'email-verification': emailVerification,
  'order-confirmation': orderConfirmation,
  'payment-received': paymentReceived,
  'payment-rejected': paymentRejected,
  'order-status': orderStatus,
  'quote-saved': quoteSaved,
  'contact-to-shop': contactToShop,
  'contact-acknowledgement': contactAcknowledgement,
  'withdrawal-acknowledgement': withdrawalAcknowledgement,
  'refund-issued': refundIssued,
  'refund-iban-request': refundIbanRequest,
  'supplement-requested': supplementRequested,
  'supplement-paid': supplementPaid,
  'originals-received': originalsReceived,
  'order-ready': orderReady,
  'order-shipped': orderShipped,
  'label-ready': labelReady,
  'files-expiring': filesExpiring,
  'review-open': reviewOpen,
  'review-reminder': reviewReminder,
  'order-message': orderMessage,
  'test-email': testEmail,
  'staff-invitation': staffInvitation,
  'share-invitation': shareInvitation,
  'gift-card': giftCard,
  'gift-card-copy': giftCardCopy,
  'gift-card-expiring': giftCardExpiring,
  custom,
} satisfies Record<string, TemplateDefinition>;

export type EmailTemplateName = keyof typeof EMAIL_TEMPLATES;
/** What a caller passes when queueing `N` (defaults not yet applied). */
export type EmailTemplateData<N extends EmailTemplateName> = z.input<(typeof EMAIL_TEMPLATES)[N]['schema']>;

export interface RenderedEmail {
  subject: string;
  html: string;
  text: string;
  /** Where « Répondre » writes: the shop's mailbox unless the template names another address. */
  replyTo: string;
  /** Sent by the shop on its own (RFC 3834 `Auto-Submitted: auto-generated`), not a person's words. */
  automatic: boolean;
  attachments: EmailAttachment[];
}

/** The data does not fit the template: sending again will not help. */
export class InvalidEmailDataError extends Error {
  constructor(template: string, detail: string) {
    super(`Invalid data for e-mail template "${template}": ${detail}`);
    this.name = 'InvalidEmailDataError';
  }
}

export function isEmailTemplateName(name: string): name is EmailTemplateName {
  return Object.hasOwn(EMAIL_TEMPLATES, name);
}

/** Checks (and completes with defaults) the data of a template; throws InvalidEmailDataError. */
export function parseEmailData(template: string, data: unknown): { name: EmailTemplateName; data: unknown } {
  if (!isEmailTemplateName(template)) throw new InvalidEmailDataError(template, 'unknown template');
  const definition: TemplateDefinition = EMAIL_TEMPLATES[template];
  const result = definition.schema.safeParse(data);
  if (!result.success) {
    const detail = result.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
    throw new InvalidEmailDataError(template, detail);
  }
  return { name: template, data: result.data };
}

export function isSensitiveTemplate(template: string): boolean {
  return isEmailTemplateName(template) && (EMAIL_TEMPLATES[template] as TemplateDefinition).sensitive === true;
}

// Headings keep their case in the text version (html-to-text capitalises them by default).
const textOptions = {
  selectors: ['h1', 'h2', 'h3'].map((selector) => ({
    selector,
    options: { uppercase: false, leadingLineBreaks: 2, trailingLineBreaks: 1 },
  })),
};

/**
 * Subject, HTML, plain text, Reply-To and attachments of a message. Every message answers to a
 * mailbox someone reads: the sender (no-reply@…) is not one, so a template that names no other
 * address (the contact form's, which answers the visitor) gets the shop's.
 */
export async function renderEmail<N extends EmailTemplateName>(
  template: N,
  data: EmailTemplateData<N>,
): Promise<RenderedEmail>;
export async function renderEmail(template: string, data: unknown): Promise<RenderedEmail>;
export async function renderEmail(template: string, data: unknown): Promise<RenderedEmail> {
  const parsed = parseEmailData(template, data);
  const definition: TemplateDefinition = EMAIL_TEMPLATES[parsed.name];
  const built = definition.build(parsed.data);
  const html = 'element' in built ? await render(built.element) : built.html;
  // A subject is one header line: a line break in it would be a header injection attempt.
  const oneLine = built.subject.replace(/[\r\n]+/g, ' ').trim();
  return {
    subject: parsed.name === 'custom' ? oneLine : frenchTypography(oneLine),
    html,
    text: toPlainText(html, textOptions).trim(),
    replyTo: built.replyTo ?? shopContactAddress(),
    automatic: definition.writtenByPerson !== true,
    attachments: definition.attachments ? await definition.attachments(parsed.data) : [],
  };
}
