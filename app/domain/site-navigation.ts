// The site's menus as plain data: the header drop-downs, the mobile drawer and the footer read them.

export interface MenuEntry {
  title: string;
  path: string;
  /** An illustration under /public, shown in the Prestations grid. */
  image?: string;
  /** Language of the title when it is not French. */
  lang?: 'en';
}

export interface MenuGroup {
  /** Stable key, used for element ids and tests. */
  id: 'prestations' | 'infos' | 'ressources' | 'pro';
  title: string;
  entries: readonly MenuEntry[];
}

export const SERVICE_IDS = [
  'photos',
  'slides',
  'ektachromes',
  'negatives',
  'plaques-de-verre',
  'vhs',
  'vhs-c',
  'minidv',
  'film',
  'bobines',
  'documents',
  'journaux',
  'restauration',
  'soovenirs',
] as const;

export type ServiceId = (typeof SERVICE_IDS)[number];

const SERVICE_TITLES: Record<ServiceId, string> = {
  photos: 'Photos papier',
  slides: 'Diapositives',
  ektachromes: 'Ektachromes',
  negatives: 'Négatifs',
  'plaques-de-verre': 'Plaques de verre',
  vhs: 'Cassettes VHS',
  'vhs-c': 'Cassettes VHS-C',
  minidv: 'Cassettes MiniDV',
  film: 'Films Super 8 et 16 mm',
  bobines: 'Bobines de film',
  documents: 'Documents',
  journaux: 'Journaux',
  restauration: 'Restauration photo',
  soovenirs: 'Soovenirs sur mesure',
};

export function serviceImage(id: ServiceId): string {
  return `/images/services/${id}.svg`;
}

export const serviceEntries: readonly MenuEntry[] = SERVICE_IDS.map((id) => ({
  title: SERVICE_TITLES[id],
  path: `/services/${id}`,
  image: serviceImage(id),
}));

export const siteNavigation: readonly MenuGroup[] = [
  { id: 'prestations', title: 'Prestations', entries: serviceEntries },
  {
    id: 'infos',
    title: 'Infos',
    entries: [
      { title: 'Organiser ma commande', path: '/organisation-commande' },
      { title: 'Questions fréquentes', path: '/faq' },
      { title: 'Comment ça marche', path: '/numerisation-fonctionnement' },
      // The URL keeps its accent; browsers send it percent-encoded.
      { title: 'Essai gratuit', path: '/numérisation-essai-gratuit' },
      { title: 'À propos', path: '/a-propos' },
      { title: 'Contact', path: '/contact' },
      { title: 'La boîte Soovenirs', path: '/boite-soovenirs' },
    ],
  },
  {
    id: 'ressources',
    title: 'Ressources',
    entries: [
      { title: 'Blog', path: '/blog' },
      { title: 'Histoire de la photographie', path: '/histoire-photographie' },
      { title: 'Guide de conservation', path: '/guide-conservation' },
      { title: 'Villes du Loiret', path: '/villes-du-loiret' },
      { title: 'Boutique', path: '/boutique' },
    ],
  },
  {
    id: 'pro',
    title: 'Pro',
    entries: [
      { title: 'Offre entreprises', path: '/services-entreprises' },
      { title: 'Demander un devis professionnel', path: '/contact?pro=true' },
    ],
  },
];

/** The link under the Prestations grid. */
export const allServicesEntry: MenuEntry = { title: 'Voir toutes nos prestations', path: '/services' };

export const homeEntry: MenuEntry = { title: 'Accueil', path: '/' };
export const estimateEntry: MenuEntry = { title: 'Estimer ma commande', path: '/configurateur' };
/** Shown only in the mobile drawer. */
export const quotesEntry: MenuEntry = { title: 'Mes devis', path: '/mes-devis' };
export const loginEntry: MenuEntry = { title: 'Se connecter', path: '/login' };
export const accountEntry: MenuEntry = { title: 'Mon Compte', path: '/profile' };
/** Header and drawer show it to administrators only; the footer links it for everyone. */
export const adminEntry: MenuEntry = { title: 'Administration', path: '/admin' };

export const legalEntries: readonly MenuEntry[] = [
  { title: 'Mentions légales', path: '/mentions-legales' },
  { title: 'Conditions générales de vente', path: '/cgv' },
  { title: 'Politique de confidentialité', path: '/politique-de-confidentialite' },
  { title: 'Legal notice (English)', path: '/legal-notice', lang: 'en' },
];

/**
 * The footer's own short service list; the footer spells the glass plates URL this
 * way. The box is not in it: the Infos column's « La boîte Soovenirs » (/boite-soovenirs) is its one
 * link in the footer.
 */
export const footerServiceEntries: readonly MenuEntry[] = [
  { title: 'Photos papier', path: '/services/photos' },
  { title: 'Diapositives', path: '/services/slides' },
  { title: 'Cassettes VHS', path: '/services/vhs' },
  { title: 'Films Super 8 et 16 mm', path: '/services/film' },
  { title: 'Plaques de verre', path: '/services/plaques-verre' },
];
