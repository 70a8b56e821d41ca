import { NBSP } from './french-format';

/**
 * The shop's identity as the e-mails' footer shows it. The same facts appear in the site's footer
 * and on invoices; keep them in step (one shared module once the invoices land).
 */
export const SHOP_IDENTITY = {
  brand: 'Soovenirs',
  legalName: 'Soovenirs SAS',
  street: '12 rue des Archives',
  postalCode: '75004',
  city: 'Paris',
  phone: `01${NBSP}84${NBSP}60${NBSP}12${NBSP}34`,
  phoneHref: 'tel:+33184601234',
  email: 'contact@soovenirs.fr',
  siren: `912${NBSP}345${NBSP}678`,
  domain: 'soovenirs.fr',
} as const;
