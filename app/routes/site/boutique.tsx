import { BoxIcon, DiscIcon, GiftIcon, type LucideIcon, TagIcon, TruckIcon, UsbIcon } from 'lucide-react';
import { data, Link } from 'react-router';
import { CallToAction } from '~/components/site/call-to-action';
import { GIFT_CARD_PATH, giftCardValidity } from '~/components/site/gift-card-offer';
import { JsonLd } from '~/components/site/json-ld';
import { PageHeader } from '~/components/site/page-header';
import { Prose } from '~/components/site/prose';
import { pageCacheHeaders, publicPageHeaders } from '~/domain/content/cache-control';
import { breadcrumbList, seoMeta } from '~/domain/content/seo';
import { CUSTOM_QUOTE, fillPricePlaceholders, PRICE_ON_REQUEST } from '~/domain/content/service-prices';
import { frenchProse as fr } from '~/domain/content/typography';
import { formatEurosFromCents } from '~/domain/format';
import type { PriceListDocument } from '~/domain/pricing/default-price-list';
import { loadPriceList, siteOrigin } from '~/server/content/site.server';
import { loadSitePage } from '~/server/content/source.server';
import type { Route } from './+types/boutique';

export const headers = publicPageHeaders;

const CRUMBS = [
  { name: 'Accueil', path: '/' },
  { name: 'Boutique', path: '/boutique' },
];

export function meta({ loaderData }: Route.MetaArgs) {
  return seoMeta({
    title: 'Boutique : coffrets, clés USB, DVD et cartes cadeaux',
    description: fr(
      'La boîte Soovenirs, la clé USB et le DVD de vos souvenirs, l’étiquette d’envoi prépayée et la carte cadeau : les produits et leurs prix.',
    ),
    path: '/boutique',
    origin: loaderData?.origin ?? '',
  });
}

type ProductIcon = 'box' | 'usb' | 'disc' | 'label' | 'return' | 'gift';

interface Product {
  id: string;
  icon: ProductIcon;
  title: string;
  text: string;
  price: string;
  link: { label: string; to: string };
}

function amount(cents: unknown): string {
  return typeof cents === 'number' && Number.isFinite(cents) ? formatEurosFromCents(cents) : PRICE_ON_REQUEST;
}

/** « De 20,00 € à 500,00 € », the amounts a card may be bought for; « Montant au choix » without the list. */
function giftCardRange(priceList: PriceListDocument | null): string {
  const bounds = priceList?.giftCards;
  return bounds ? `De ${amount(bounds.minPrice)} à ${amount(bounds.maxPrice)}` : 'Montant au choix';
}

function products(priceList: PriceListDocument | null): Product[] {
  return [
    {
      id: 'boite',
      icon: 'box',
      title: 'La boîte Soovenirs',
      text: 'Le coffret pour rassembler, envoyer et conserver vos souvenirs, avec leur clé USB.',
      price: CUSTOM_QUOTE,
      link: { label: 'Découvrir la boîte Soovenirs', to: '/boite-soovenirs' },
    },
    {
      id: 'usb',
      icon: 'usb',
      title: 'Clé USB de vos souvenirs',
      text: 'Tous vos fichiers sur une clé USB, classés par support et par date, livrée avec vos originaux.',
      price: amount(priceList?.deliveryCosts?.usb),
      link: { label: 'Choisir la clé USB dans le configurateur', to: '/configurateur' },
    },
    {
      id: 'disque',
      icon: 'disc',
      title: 'DVD de vos vidéos',
      text: 'Vos vidéos lisibles sur le lecteur du salon, avec un menu par cassette ou par bobine.',
      price: amount(priceList?.deliveryCosts?.disc),
      link: { label: 'Choisir le DVD dans le configurateur', to: '/configurateur' },
    },
    {
      id: 'etiquette',
      icon: 'label',
      title: 'Étiquette d’envoi prépayée',
      text: 'Imprimez-la, collez-la sur votre colis et déposez-le : l’envoi est suivi et assuré jusqu’à l’atelier.',
      price: amount(priceList?.sendingLabelPrice),
      link: { label: 'Ajouter l’étiquette à ma commande', to: '/configurateur' },
    },
    {
      id: 'retour',
      icon: 'return',
      title: 'Retour de vos originaux',
      text: 'Vos albums, cassettes et bobines reviennent chez vous en colis suivi, soigneusement calés.',
      price: amount(priceList?.returnShippingPrice),
      link: { label: 'Choisir le retour des originaux', to: '/configurateur' },
    },
    {
      id: 'carte-cadeau',
      icon: 'gift',
      title: 'Carte cadeau',
      // Its validity and bounds are the active price list's (Tarifs, « Cartes cadeaux »).
      text: `Offrez la numérisation des souvenirs d’un proche, du montant de votre choix, ${giftCardValidity(priceList?.giftCards?.validityMonths)}, envoyée par e-mail ou à imprimer.`,
      price: giftCardRange(priceList),
      link: { label: 'Offrir une carte cadeau', to: GIFT_CARD_PATH },
    },
  ];
}

export async function loader({ request }: Route.LoaderArgs) {
  const [priceList, page] = await Promise.all([loadPriceList(), loadSitePage('boutique')]);
  const origin = siteOrigin();
  return data(
    {
      origin,
      intro: page?.intro ?? '',
      html: page ? fillPricePlaceholders(page.html, priceList) : '',
      products: products(priceList),
      structuredData: breadcrumbList(origin, CRUMBS),
    },
    { headers: pageCacheHeaders(request) },
  );
}

const ICONS: Record<ProductIcon, LucideIcon> = {
  box: BoxIcon,
  usb: UsbIcon,
  disc: DiscIcon,
  label: TagIcon,
  return: TruckIcon,
  gift: GiftIcon,
};

export default function Boutique({ loaderData }: Route.ComponentProps) {
  const { intro, html, products, structuredData } = loaderData;
  return (
    <>
      <PageHeader
        crumbs={CRUMBS}
        kicker="Boutique"
        title="La boutique Soovenirs"
        intro={
          <p>
            {intro ||
              fr('Tout ce qui accompagne vos souvenirs numérisés : coffret, supports de livraison, envoi et cadeaux.')}
          </p>
        }
      />
      <section aria-labelledby="produits" className="mx-auto w-full max-w-7xl px-4 pb-16 sm:px-6 lg:px-8">
        <h2 id="produits" className="sr-only">
          Nos produits
        </h2>
        <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {products.map((product) => {
            const Icon = ICONS[product.icon];
            return (
              <li key={product.id}>
                <article className="flex h-full flex-col gap-3 rounded-xl border border-border bg-card p-6 shadow-sm">
                  <Icon className="size-8 text-sepia" aria-hidden="true" />
                  <h3 className="font-heading font-semibold text-xl">{product.title}</h3>
                  <p className="flex-1 text-muted-foreground">{fr(product.text)}</p>
                  <p className="font-heading font-semibold text-2xl text-primary">{product.price}</p>
                  <Link
                    to={product.link.to}
                    className="font-medium text-primary underline underline-offset-4 hover:text-sepia"
                  >
                    {product.link.label}
                  </Link>
                </article>
              </li>
            );
          })}
        </ul>
      </section>
      {html ? (
        <div className="bg-card">
          <div className="mx-auto w-full max-w-3xl px-4 py-16 sm:px-6">
            <Prose html={html} />
          </div>
        </div>
      ) : null}
      <CallToAction
        title="Tout commence par une estimation"
        text={fr('Supports, options, livraison : le configurateur compose votre commande et son prix exact.')}
      />
      <JsonLd data={structuredData} />
    </>
  );
}
