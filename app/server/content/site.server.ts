import { resolveServiceImage } from '~/domain/content/service-images';
import { servicePrice } from '~/domain/content/service-prices';
import type { ServiceImage } from '~/domain/content/types';
import type { PriceListDocument } from '~/domain/pricing/default-price-list';
import { SERVICE_CATALOGUE, type ServiceCatalogueEntry, type ServiceId } from '~/domain/services';
import { baseUrl } from '../env.server';
import { log } from '../log.server';
import { getActivePriceList } from '../pricing/price-lists.server';
import { contentSource } from './source.server';

/** The public origin, for canonical URLs, Open Graph and structured data. */
export function siteOrigin(): string {
  return baseUrl();
}

/**
 * The active price list's document, or null when it cannot be read: pages then show the content
 * layer's fallback prices instead of failing.
 */
export async function loadPriceList(): Promise<PriceListDocument | null> {
  try {
    return (await getActivePriceList()).data;
  } catch (error) {
    log.error({ err: error }, 'the active price list could not be read: fallback prices shown');
    return null;
  }
}

const LOCAL_SERVICE_IMAGES: Record<string, string> = Object.fromEntries(
  SERVICE_CATALOGUE.map((service) => [service.id, service.image]),
);

/** Service images of the content source, asked only when the local map lacks a service. */
async function remoteServiceImages(ids: readonly string[]): Promise<ServiceImage[]> {
  if (ids.every((id) => LOCAL_SERVICE_IMAGES[id])) return [];
  try {
    return await contentSource().getServiceImages();
  } catch {
    return [];
  }
}

export interface ServiceCardView {
  id: ServiceId;
  title: string;
  summary: string;
  popular: boolean;
  image: string;
  priceLabel: string;
  category: ServiceCatalogueEntry['category'];
}

/** The cards of the given services, priced from the price list. */
export async function serviceCards(
  ids: readonly ServiceId[],
  priceList: PriceListDocument | null,
): Promise<ServiceCardView[]> {
  const remote = await remoteServiceImages(ids);
  return ids.map((id) => {
    const entry = SERVICE_CATALOGUE.find((service) => service.id === id) as ServiceCatalogueEntry;
    return {
      id,
      title: entry.title,
      summary: entry.summary,
      popular: entry.popular,
      image: resolveServiceImage(id, LOCAL_SERVICE_IMAGES, remote),
      priceLabel: servicePrice(entry, priceList).label,
      category: entry.category,
    };
  });
}
