import { businessHours, company } from '../company';

/*
 * Content files name the company's legal identity with placeholders ({{entreprise.siren}}) rather
 * than copies: the legal pages then always agree with the footer, the invoices and the e-mails.
 */

const hours = businessHours.map((line) => `${line.days} : ${line.hours}`).join(', ');

const VALUES: Record<string, string> = {
  'entreprise.marque': company.brand,
  'entreprise.nom': company.name,
  'entreprise.raison-sociale': company.legalName,
  'entreprise.capital': company.capital,
  'entreprise.siren': company.siren,
  'entreprise.rcs': company.rcs,
  'entreprise.tva': company.vatNumber,
  'entreprise.adresse': `${company.street}, ${company.postalCode} ${company.city}`,
  'entreprise.rue': company.street,
  'entreprise.code-postal': company.postalCode,
  'entreprise.ville': company.city,
  'entreprise.telephone': company.phone,
  'entreprise.email': company.email,
  'entreprise.domaine': company.domain,
  'entreprise.horaires': hours,
};

/** Replaces the known {{entreprise.*}} placeholders; anything else is left as written. */
export function fillCompanyPlaceholders(text: string): string {
  return text.replace(/\{\{\s*(entreprise\.[\w-]+)\s*\}\}/g, (match, key: string) => VALUES[key] ?? match);
}
