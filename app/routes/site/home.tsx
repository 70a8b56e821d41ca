import { ArrowRightIcon } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '~/components/ui/button';
import { serviceImage } from '~/domain/site-navigation';

export function meta() {
  return [
    { title: 'Soovenirs\u202F: numérisation de vos souvenirs' },
    {
      name: 'description',
      content:
        'Photos, diapositives, négatifs, cassettes VHS et films Super\u00A08 numérisés avec soin en France. Estimez votre commande en ligne.',
    },
  ];
}

const figures = [
  { value: '100\u202F%', label: 'Made in France' },
  { value: '30\u202F000', label: 'souvenirs numérisés' },
  { value: '48\u00A0h', label: 'en express' },
] as const;

const heroImages = [
  { id: 'photos', className: '-rotate-6' },
  { id: 'vhs', className: 'translate-y-8 rotate-3' },
  { id: 'film', className: '-translate-y-2 rotate-6' },
  { id: 'slides', className: 'translate-y-4 -rotate-3' },
] as const;

export default function Home() {
  return (
    // The hero runs under the transparent header, which turns opaque once the page scrolls.
    <section className="-mt-header bg-gradient-to-b from-secondary to-background pt-header">
      <div className="mx-auto grid max-w-7xl items-center gap-12 px-4 py-16 sm:px-6 md:py-24 lg:grid-cols-[1.2fr_1fr] lg:px-8">
        <div className="flex flex-col items-start gap-6">
          <p className="font-semibold text-sepia text-sm uppercase tracking-wider">Numérisation de souvenirs</p>
          <h1 className="text-display">Donnez une seconde vie à vos souvenirs</h1>
          <p className="max-w-xl text-lg text-muted-foreground">
            Photos, diapositives, négatifs, cassettes VHS et films Super{'\u00A0'}8{'\u00A0'}: nous numérisons vos
            souvenirs avec soin dans notre atelier français, et vous les rendons prêts à partager.
          </p>
          <div className="flex flex-wrap gap-3">
            <Button asChild variant="accent" size="lg">
              <Link to="/configurateur">
                Estimer ma commande
                <ArrowRightIcon aria-hidden="true" />
              </Link>
            </Button>
            <Button asChild variant="outline" size="lg">
              <Link to="/services">Découvrir nos prestations</Link>
            </Button>
          </div>
          <ul className="mt-4 grid w-full max-w-xl grid-cols-3 gap-4 border-border border-t pt-6">
            {figures.map((figure) => (
              <li key={figure.label} className="flex flex-col">
                <span className="font-heading font-semibold text-2xl text-primary sm:text-3xl">{figure.value}</span>
                <span className="text-muted-foreground text-sm">{figure.label}</span>
              </li>
            ))}
          </ul>
        </div>
        <div aria-hidden="true" className="mx-auto hidden w-full max-w-xs grid-cols-2 gap-6 lg:grid">
          {heroImages.map((image) => (
            <img
              key={image.id}
              src={serviceImage(image.id)}
              alt=""
              width={192}
              height={192}
              className={`w-full rounded-[17%] shadow-lg ${image.className}`}
            />
          ))}
        </div>
      </div>
    </section>
  );
}
