import { CalculatorIcon, HardDriveDownloadIcon, PackageIcon, ScanLineIcon } from 'lucide-react';
import { frenchProse } from '~/domain/content/typography';

export const PROCESS_STEPS = [
  {
    icon: CalculatorIcon,
    title: 'Estimez',
    text: 'Choisissez vos supports et vos options dans le configurateur : le prix s’affiche au fur et à mesure, sans engagement.',
  },
  {
    icon: PackageIcon,
    title: 'Envoyez',
    text: 'Emballez vos souvenirs avec le bon de commande et envoyez-les en colis suivi, ou avec notre étiquette prépayée.',
  },
  {
    icon: ScanLineIcon,
    title: 'Nous numérisons',
    text: 'Dans notre atelier en France, chaque photo, cassette ou bobine est traitée à la main, nettoyée, numérisée et vérifiée.',
  },
  {
    icon: HardDriveDownloadIcon,
    title: 'Vous recevez',
    text: 'Vos fichiers arrivent par téléchargement sécurisé, sur clé USB ou sur DVD, et vos originaux reviennent chez vous.',
  },
] as const;

/** The four steps of an order, numbered. */
export function ProcessSteps({ headingLevel = 3 }: { headingLevel?: 2 | 3 }) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <ol className="grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
      {PROCESS_STEPS.map((step, index) => (
        <li
          key={step.title}
          className="relative flex flex-col gap-3 rounded-xl border border-border bg-card p-6 shadow-sm"
        >
          <div className="flex items-center gap-3">
            <span className="flex size-10 items-center justify-center rounded-full bg-primary font-heading font-semibold text-lg text-primary-foreground">
              {index + 1}
            </span>
            <step.icon className="size-6 text-sepia" aria-hidden="true" />
          </div>
          <Heading className="font-heading font-semibold text-xl">{step.title}</Heading>
          <p className="text-muted-foreground text-sm">{frenchProse(step.text)}</p>
        </li>
      ))}
    </ol>
  );
}
