import { company } from '../company';
import { frenchTypography } from '../format';
import { SUPPORT_TYPES, type SupportType } from '../pricing/default-price-list';

/*
 * How to send the originals to the workshop (docs/fulfilment.md): the address, and how to pack each
 * kind of support the customer ordered. One map, read by the confirmation page, the confirmation
 * e-mail and the order slip, so that the three say the same thing.
 */

export interface PackingAdvice {
  /** The kind of support, as the customer names it. */
  title: string;
  advice: string;
}

const PHOTOS: PackingAdvice = {
  title: 'Photos et tirages',
  advice:
    'Sortez les photos des albums collés si vous le pouvez, regroupez-les par paquets avec un papier entre chaque paquet (pas d’élastique ni de trombone), dans une enveloppe puis entre deux cartons rigides.',
};
const SLIDES: PackingAdvice = {
  title: 'Diapositives',
  advice:
    'Laissez les diapositives dans leurs boîtes ou paniers d’origine, calez-les avec du papier pour qu’elles ne bougent pas et numérotez les boîtes dans l’ordre où vous voulez les retrouver.',
};
const NEGATIVES: PackingAdvice = {
  title: 'Négatifs',
  advice:
    'Gardez les bandes de négatifs dans leurs pochettes (papier ou cristal), sans les rouler ni les plier, et ne touchez pas la surface avec les doigts. Glissez les pochettes entre deux cartons rigides.',
};
const GLASS: PackingAdvice = {
  title: 'Plaques de verre',
  advice:
    'Emballez chaque plaque séparément dans du papier de soie, rangez-les debout, serrées, dans une boîte rigide et comblez les vides avec du papier bulle. Écrivez « Fragile » sur le colis.',
};
const TAPES: PackingAdvice = {
  title: 'Cassettes vidéo (VHS, VHS-C, MiniDV)',
  advice:
    'Rembobinez si possible, laissez chaque cassette dans son boîtier, languette de protection en place, et calez-les dans un carton avec du papier bulle. Tenez-les loin des aimants et des haut-parleurs.',
};
const FILMS: PackingAdvice = {
  title: 'Films (bobines Super 8, 8 et 16 mm)',
  advice:
    'Laissez chaque bobine dans sa boîte métallique ou plastique, à plat, et notez sur la boîte ce que vous savez du film (année, lieu). Un film qui sent le vinaigre voyage dans un sachet à part.',
};
const PAPERS: PackingAdvice = {
  title: 'Documents et journaux',
  advice:
    'Mettez les documents à plat dans une chemise cartonnée, sans agrafe ni trombone, et les journaux pliés comme à l’origine. Protégez le tout de l’humidité dans un sac plastique fermé.',
};

const ADVICE_BY_TYPE: Readonly<Record<SupportType, PackingAdvice>> = {
  photos: PHOTOS,
  slides: SLIDES,
  ektachromes: SLIDES,
  negatives: NEGATIVES,
  'plaques-de-verre': GLASS,
  vhs: TAPES,
  'vhs-c': TAPES,
  minidv: TAPES,
  film: FILMS,
  documents: PAPERS,
  journaux: PAPERS,
};

// The non-breaking spaces of French typography (« Fragile », « colis : ») are put in once here.
export const PACKING_ADVICE = Object.fromEntries(
  Object.entries(ADVICE_BY_TYPE).map(([type, { title, advice }]) => [
    type,
    { title: frenchTypography(title), advice: frenchTypography(advice) },
  ]),
) as Readonly<Record<SupportType, PackingAdvice>>;

/** The advice for the supports of an order, once per kind, in the catalogue's order. */
export function packingAdviceFor(types: ReadonlyArray<string>): PackingAdvice[] {
  const advice = SUPPORT_TYPES.filter((type) => types.includes(type)).map((type) => PACKING_ADVICE[type]);
  return advice.filter((item, index) => advice.findIndex((other) => other.title === item.title) === index);
}

/** Where the originals go: the workshop's postal address, line by line. */
export const WORKSHOP_ADDRESS_LINES: readonly string[] = [
  `${company.brand} – Atelier de numérisation`,
  company.street,
  `${company.postalCode} ${company.city}`,
  'France',
];

/** Advice that applies to every parcel. */
export const GENERAL_PACKING_ADVICE: readonly string[] = (
  [
    'Imprimez le bordereau de la commande et glissez-le dans le colis : son code-barres nous permet de rattacher vos souvenirs à votre commande dès leur arrivée.',
    'Utilisez un carton solide, calez le contenu pour qu’il ne bouge pas et fermez-le avec un ruban adhésif large.',
    'Gardez la preuve de dépôt et le numéro de suivi du colis.',
  ] as const
).map(frenchTypography);
