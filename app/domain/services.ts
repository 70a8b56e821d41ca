import type { PriceListDocument, SupportType } from './pricing/default-price-list';
import { SERVICE_IDS, type ServiceId, serviceImage } from './site-navigation';

/*
 * The catalogue of services the public site presents: one entry per service id (its
 * URL), with what the cards, the service pages, the sitemap and the
 * structured data need. Prices are not here: they come from the active price list.
 */

export type ServiceCategory = 'images' | 'video' | 'film' | 'papier' | 'plus';

export interface ServiceCatalogueEntry {
  id: ServiceId;
  title: string;
  /** One sentence for the cards. */
  summary: string;
  category: ServiceCategory;
  /** Marked "Populaire" on the cards (photos, vhs and restauration). */
  popular: boolean;
  /** The price list entry that prices this service, if any. */
  support: SupportType | null;
  /** How the price is expressed. */
  pricing: 'unit' | 'reel' | 'restoration' | 'quote';
  image: string;
}

export const SERVICE_CATEGORIES: readonly { id: ServiceCategory; title: string; description: string }[] = [
  {
    id: 'images',
    title: 'Photos et images',
    description: 'Tirages papier, diapositives, ektachromes, négatifs et plaques de verre.',
  },
  { id: 'video', title: 'Cassettes vidéo', description: 'VHS, VHS-C et MiniDV transférées en fichiers vidéo.' },
  { id: 'film', title: 'Films argentiques', description: 'Super 8, 8 mm et 16 mm, numérisés image par image.' },
  { id: 'papier', title: 'Documents et journaux', description: 'Lettres, archives, coupures de presse et journaux.' },
  { id: 'plus', title: 'Restauration et coffrets', description: 'Retouche de vos photos abîmées et boîte souvenir.' },
];

const entries: Record<ServiceId, Omit<ServiceCatalogueEntry, 'id' | 'image'>> = {
  photos: {
    title: 'Photos papier',
    summary: 'Vos tirages et albums numérisés à plat, sans les abîmer, couleurs corrigées.',
    category: 'images',
    popular: true,
    support: 'photos',
    pricing: 'unit',
  },
  slides: {
    title: 'Diapositives',
    summary: 'Diapositives 24 × 36 en cadres carton ou plastique, dépoussiérées et numérisées.',
    category: 'images',
    popular: false,
    support: 'slides',
    pricing: 'unit',
  },
  ektachromes: {
    title: 'Ektachromes',
    summary: 'Films inversibles moyen et grand format numérisés avec leur gamme de couleurs.',
    category: 'images',
    popular: false,
    support: 'ektachromes',
    pricing: 'unit',
  },
  negatives: {
    title: 'Négatifs',
    summary: 'Bandes de négatifs couleur ou noir et blanc, inversées et étalonnées une à une.',
    category: 'images',
    popular: false,
    support: 'negatives',
    pricing: 'unit',
  },
  'plaques-de-verre': {
    title: 'Plaques de verre',
    summary: 'Négatifs et positifs sur verre d’avant 1930, manipulés avec des gants, au banc de reproduction.',
    category: 'images',
    popular: false,
    support: 'plaques-de-verre',
    pricing: 'unit',
  },
  vhs: {
    title: 'Cassettes VHS',
    summary: 'Vos films de famille sauvés de l’usure de la bande, en MP4 lisible partout.',
    category: 'video',
    popular: true,
    support: 'vhs',
    pricing: 'unit',
  },
  'vhs-c': {
    title: 'Cassettes VHS-C',
    summary: 'Les petites cassettes des caméscopes des années 1990, lues sans adaptateur fatigué.',
    category: 'video',
    popular: false,
    support: 'vhs-c',
    pricing: 'unit',
  },
  minidv: {
    title: 'Cassettes MiniDV',
    summary: 'Transfert numérique fidèle des cassettes DV, avec les dates de tournage conservées.',
    category: 'video',
    popular: false,
    support: 'minidv',
    pricing: 'unit',
  },
  film: {
    title: 'Films Super 8 et 16 mm',
    summary: 'Films 8 mm, Super 8 et 16 mm scannés image par image, sans scintillement.',
    category: 'film',
    popular: false,
    support: 'film',
    pricing: 'reel',
  },
  bobines: {
    title: 'Bobines de film',
    summary: 'Un prix par bobine selon son diamètre : mesurez, comptez, c’est estimé.',
    category: 'film',
    popular: false,
    support: 'film',
    pricing: 'reel',
  },
  documents: {
    title: 'Documents',
    summary: 'Lettres, actes, carnets et archives familiales en PDF ou en images haute définition.',
    category: 'papier',
    popular: false,
    support: 'documents',
    pricing: 'unit',
  },
  journaux: {
    title: 'Journaux',
    summary: 'Journaux et coupures de presse jaunis, numérisés page à page, lisibles à l’écran.',
    category: 'papier',
    popular: false,
    support: 'journaux',
    pricing: 'unit',
  },
  restauration: {
    title: 'Restauration photo',
    summary: 'Déchirures, taches, couleurs passées : nos retoucheurs redonnent vie à vos images.',
    category: 'plus',
    popular: true,
    support: null,
    pricing: 'restoration',
  },
  soovenirs: {
    title: 'Soovenirs sur mesure',
    summary: 'Un coffret pour rassembler, envoyer et conserver vos souvenirs, numérisés et rendus.',
    category: 'plus',
    popular: false,
    support: null,
    pricing: 'quote',
  },
};

export const SERVICE_CATALOGUE: readonly ServiceCatalogueEntry[] = SERVICE_IDS.map((id) => ({
  id,
  image: serviceImage(id),
  ...entries[id],
}));

export function isServiceId(value: string): value is ServiceId {
  return (SERVICE_IDS as readonly string[]).includes(value);
}

/** The footer's spelling of the glass plates page, kept as an alias of the canonical id. */
export const SERVICE_ALIASES: Readonly<Record<string, ServiceId>> = { 'plaques-verre': 'plaques-de-verre' };

export function resolveServiceId(value: string): ServiceId | null {
  if (isServiceId(value)) return value;
  return Object.hasOwn(SERVICE_ALIASES, value) ? (SERVICE_ALIASES[value] as ServiceId) : null;
}

export function getServiceEntry(id: ServiceId): ServiceCatalogueEntry {
  return SERVICE_CATALOGUE.find((entry) => entry.id === id) as ServiceCatalogueEntry;
}

/** The 12 cards of /services (12 services, photos, vhs and restauration popular). */
export const CARD_SERVICE_IDS: readonly ServiceId[] = [
  'photos',
  'slides',
  'ektachromes',
  'negatives',
  'plaques-de-verre',
  'vhs',
  'vhs-c',
  'minidv',
  'film',
  'documents',
  'journaux',
  'restauration',
];

/** The services listed with their prices in the structured data of /services (7 of them). */
export const STRUCTURED_DATA_SERVICE_IDS: readonly ServiceId[] = [
  'photos',
  'slides',
  'negatives',
  'plaques-de-verre',
  'vhs',
  'minidv',
  'film',
];

export type { PriceListDocument, ServiceId };
