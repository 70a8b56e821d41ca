import { supportLabel } from '../account/order-details';
import { formatDateFr, formatDateTimeFr } from '../format';
import { describeFileCount, type FileKind, formatFileSize } from './delivered-files';

/*
 * The order's files as the back office shows them (decision 011): grouped by support with
 * their counts and sizes, the files the customer wants redone first, the preview and download
 * states in French.
 */

export interface AdminFile {
  id: string;
  name: string;
  support: string;
  kind: FileKind;
  sizeBytes: number;
  previewStatus: 'pending' | 'ready' | 'none' | 'failed';
  downloadCount: number;
  lastDownloadedAt: string | null;
  reworkRequestedAt: string | null;
  reworkComment: string | null;
  createdAt: string;
}

export interface AdminFileGroup {
  support: string;
  label: string;
  /** `12 fichiers · 1,2 Go` */
  summary: string;
  files: AdminFile[];
}

export function groupAdminFiles(files: readonly AdminFile[]): AdminFileGroup[] {
  const groups = new Map<string, AdminFile[]>();
  for (const file of files) groups.set(file.support, [...(groups.get(file.support) ?? []), file]);
  return [...groups.entries()]
    .map(([support, list]) => ({
      support,
      label: supportLabel(support),
      summary: describeFileCount(
        list.length,
        list.reduce((sum, file) => sum + file.sizeBytes, 0),
      ),
      files: [...list].sort((a, b) => a.name.localeCompare(b.name, 'fr', { numeric: true })),
    }))
    .sort((a, b) => a.label.localeCompare(b.label, 'fr'));
}

/** The files the customer flagged « À refaire », the oldest request first. */
export function reworkFiles(files: readonly AdminFile[]): AdminFile[] {
  return files
    .filter((file) => file.reworkRequestedAt !== null)
    .sort((a, b) => (a.reworkRequestedAt ?? '').localeCompare(b.reworkRequestedAt ?? ''));
}

/** `2 fichiers à refaire` */
export function reworkHeading(count: number): string {
  return `${count} fichier${count > 1 ? 's' : ''} à refaire`;
}

/** `Téléchargé 3 fois, dernier le 21/11/2026 à 10:00` / `Jamais téléchargé`. */
export function downloadsLabel(count: number, last: string | null): string {
  if (count <= 0) return 'Jamais téléchargé';
  const times = `Téléchargé ${count} fois`;
  return last ? `${times}, dernier le ${formatDateTimeFr(last)}` : times;
}

/** The preview's state, or null when the preview is there (nothing to say). */
export function previewLabel(status: AdminFile['previewStatus'], kind: FileKind): string | null {
  switch (status) {
    case 'pending':
      return 'Aperçu en cours';
    case 'failed':
      return 'Aperçu indisponible';
    case 'none':
      return kind === 'other' ? null : 'Aperçu indisponible';
    case 'ready':
      return null;
  }
}

export interface DeliveryState {
  publishedAt: string | null;
  expiresAt: string | null;
  deletedAt: string | null;
  reminderSentAt: string | null;
}

/** One line on the delivery: not published, online until…, deleted on…. */
export function deliveryLabel(state: DeliveryState): string {
  if (state.deletedAt) return `Fichiers supprimés le ${formatDateFr(state.deletedAt)} (fin de la conservation)`;
  if (!state.publishedAt) return 'Livraison pas encore publiée';
  const until = state.expiresAt ? `, en ligne jusqu’au ${formatDateFr(state.expiresAt)}` : '';
  return `Publiée le ${formatDateTimeFr(state.publishedAt)}${until}`;
}

export { formatFileSize };
