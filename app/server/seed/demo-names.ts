/* Word lists for demo customers: common French first and last names, streets of the three cities. */

const words = (text: string) => text.trim().split(/\s+/);
const list = (text: string) =>
  text
    .split('|')
    .map((s) => s.trim())
    .filter(Boolean);

export const FIRST_NAMES: readonly string[] = words(`
  Camille Léa Manon Chloé Emma Inès Sarah Julie Laura Marie Anne Isabelle Nathalie Sophie Catherine
  Sylvie Christine Valérie Monique Françoise Claire Élise Juliette Louise Alice Jeanne Margaux Océane
  Pauline Agnès Thomas Lucas Hugo Nicolas Julien Antoine Maxime Alexandre Romain Pierre Jean Philippe
  Michel Alain Patrick Bernard François Christophe Laurent Olivier Éric Frédéric Stéphane Sébastien
  David Mathieu Guillaume Louis Gabriel Arthur
`);

export const LAST_NAMES: readonly string[] = words(`
  Martin Bernard Thomas Petit Robert Richard Durand Dubois Moreau Laurent Simon Michel Lefèvre Leroy
  Roux David Bertrand Morel Fournier Girard Bonnet Dupont Lambert Fontaine Rousseau Vincent Muller
  Lefebvre Faure André Mercier Blanc Guérin Boyer Garnier Chevalier François Legrand Gauthier Garcia
  Perrin Robin Clément Morin Nicolas Henry Roussel Mathieu Gautier Masson Marchand Duval Denis Dumont
  Marie Lemaire Noël Meyer Dufour Meunier Brun Blanchard Giraud Joly Rivière Lucas Brunet Gaillard
  Barbier Arnaud
`);

export interface CityStreets {
  city: string;
  postalCodes: readonly string[];
  streets: readonly string[];
}

export const CITIES = {
  paris: {
    city: 'Paris',
    postalCodes: Array.from({ length: 20 }, (_, i) => `750${String(i + 1).padStart(2, '0')}`),
    streets: list(`
      rue de Rivoli | boulevard Voltaire | rue du Faubourg Saint-Antoine | avenue de la République |
      rue Oberkampf | rue de Vaugirard | boulevard Saint-Michel | rue de la Roquette | avenue Parmentier |
      rue Lepic | rue des Martyrs | avenue des Gobelins | rue de Charonne | rue Saint-Maur |
      boulevard de Magenta | rue de Belleville | avenue Daumesnil | rue Caulaincourt
    `),
  },
  orleans: {
    city: 'Orléans',
    postalCodes: ['45000', '45100'],
    streets: list(`
      rue Bannier | rue de la République | rue Jeanne d’Arc | rue de Bourgogne | rue Royale |
      rue du Faubourg Saint-Jean | rue du Faubourg Bannier | boulevard Alexandre Martin |
      rue de la Charpenterie | quai du Châtelet | avenue Dauphine | rue Saint-Marceau
    `),
  },
  lyon: {
    city: 'Lyon',
    postalCodes: Array.from({ length: 9 }, (_, i) => `6900${i + 1}`),
    streets: list(`
      rue de la République | rue Mercière | cours Lafayette | rue Victor Hugo | avenue Jean Jaurès |
      rue Garibaldi | cours Vitton | rue Paul Bert | montée de la Grande Côte | rue Saint-Jean |
      quai Saint-Vincent | avenue des Frères Lumière
    `),
  },
} satisfies Record<string, CityStreets>;

export const CITY_WEIGHTS: Record<keyof typeof CITIES, number> = { paris: 40, orleans: 35, lyon: 25 };
