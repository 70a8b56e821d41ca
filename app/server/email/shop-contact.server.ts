import { company } from '~/domain/company';

/**
 * The shop's mailbox: where contact messages go and where customers' replies to our e-mails land
 * (their Reply-To; the sender, no-reply@…, is not read). CONTACT_EMAIL overrides the address of
 * the company's identity.
 */
export function shopContactAddress(): string {
  return process.env.CONTACT_EMAIL?.trim() || company.email;
}
