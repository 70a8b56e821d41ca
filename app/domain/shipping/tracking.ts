/*
 * La Poste's public tracking page of a parcel: the one link the confirmation page, the account, the
 * e-mails and the back office show for a parcel number (Colissimo or typed in by the staff).
 */

export const TRACKING_BASE_URL = 'https://www.laposte.fr/outils/suivre-vos-envois';

export function trackingUrl(parcelNumber: string): string {
  return `${TRACKING_BASE_URL}?code=${encodeURIComponent(parcelNumber.trim())}`;
}
