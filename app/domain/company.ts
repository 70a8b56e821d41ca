import { NBSP, NNBSP } from './format';

/** The shop's legal identity: site footer, legal pages, e-mails and invoices all read it here. */
export const company = {
  brand: 'Soovenirs',
  name: 'Soovenirs SAS',
  legalName: 'Soovenirs SAS',
  capital: `15${NNBSP}000${NBSP}€`,
  siren: `912${NBSP}345${NBSP}678`,
  rcs: 'RCS Paris',
  vatNumber: `FR${NBSP}45${NBSP}912${NBSP}345${NBSP}678`,
  street: '12 rue des Archives',
  postalCode: '75004',
  city: 'Paris',
  phone: `01${NBSP}84${NBSP}60${NBSP}12${NBSP}34`,
  phoneHref: 'tel:+33184601234',
  email: 'contact@soovenirs.fr',
  domain: 'soovenirs.fr',
} as const;

export const businessHours = [
  { days: 'Lundi–vendredi', hours: '9h–20h30' },
  { days: 'Samedi', hours: '10h–15h' },
  { days: 'Dimanche', hours: 'Fermé' },
] as const;
