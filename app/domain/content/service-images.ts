import type { ServiceImage } from './types';

/** Shown when neither the local map nor the content source has a picture for a service. */
export const SERVICE_IMAGE_PLACEHOLDER = '/images/site/service-placeholder.svg';

/**
 * The picture of a service card: the local map first, then the
 * content source's service images (the service's default image before any other), then a
 * placeholder.
 */
export function resolveServiceImage(
  slug: string,
  localMap: Readonly<Record<string, string>>,
  remote: readonly ServiceImage[] = [],
): string {
  const local = localMap[slug];
  if (local) return local;
  const candidates = remote.filter((image) => image.serviceSlug === slug && isUsableUrl(image.imageUrl));
  const chosen = candidates.find((image) => image.isDefault) ?? candidates[0];
  return chosen?.imageUrl ?? SERVICE_IMAGE_PLACEHOLDER;
}

function isUsableUrl(url: string): boolean {
  return /^(https?:\/\/|\/(?!\/))/i.test(url);
}
