import { frenchProse } from './typography';

/*
 * Customers' words on the home page. Before going live, replace them with reviews of real,
 * identifiable customers who agreed to be quoted: invented reviews are a misleading commercial
 * practice (Code de la consommation, L121-4).
 */

const raw = [
  {
    quote:
      'Trois albums de mes grands-parents et une boîte de diapositives des années 1970 : tout est revenu intact, et les couleurs des diapos sont plus belles qu’à la projection. Toute la famille a reçu le lien le même soir.',
    name: 'Martine L.',
    place: 'Orléans',
    service: 'Photos et diapositives',
  },
  {
    quote:
      'Nos cassettes VHS de mariage commençaient à sauter. Le fichier MP4 est net, le son aussi, et l’équipe m’a prévenu qu’une cassette avait de la moisissure avant de la nettoyer. Sérieux et rapide.',
    name: 'Karim B.',
    place: 'Lyon',
    service: 'Cassettes VHS',
  },
  {
    quote:
      'Mon père filmait en Super 8. Voir ces bobines muettes devenir un film fluide, sans scintillement, avec les titres de chaque bobine : un vrai cadeau pour ses 80 ans.',
    name: 'Hélène D.',
    place: 'Paris',
    service: 'Films Super 8',
  },
];

export const TESTIMONIALS = raw.map((item) => ({ ...item, quote: frenchProse(item.quote) }));
