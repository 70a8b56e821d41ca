/*
 * The addresses of the customer's files (decision 011), in one place for the gallery, the viewer, the
 * order page and the tests: every one of them checks access itself on the server.
 */

export function galleryPath(orderId: string, page?: number): string {
  return `/commande/${orderId}/fichiers${page && page > 1 ? `?page=${page}` : ''}`;
}

export function originalPath(orderId: string, fileId: string): string {
  return `/commande/${orderId}/fichiers/${fileId}`;
}

export function thumbnailPath(orderId: string, fileId: string): string {
  return `/commande/${orderId}/fichiers/${fileId}/miniature.jpg`;
}

export function previewPath(orderId: string, fileId: string): string {
  return `/commande/${orderId}/fichiers/${fileId}/apercu.jpg`;
}

export function zipPath(orderId: string, support?: string): string {
  return `/commande/${orderId}/fichiers.zip${support ? `?${new URLSearchParams({ support })}` : ''}`;
}

/** `75` -> `1 min 15 s`, `3725` -> `1 h 02 min`: a video's length under its icon. */
export function formatDuration(seconds: number): string {
  const total = Math.max(0, Math.round(seconds));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const rest = total % 60;
  if (hours > 0) return `${hours}\u00A0h\u00A0${String(minutes).padStart(2, '0')}\u00A0min`;
  if (minutes > 0) return `${minutes}\u00A0min${rest > 0 ? `\u00A0${rest}\u00A0s` : ''}`;
  return `${rest}\u00A0s`;
}

/** What the gallery's `<video>` plays (the master or its web rendition), with Range. */
export function videoPath(orderId: string, fileId: string): string {
  return `/commande/${orderId}/fichiers/${fileId}/video.mp4`;
}

/** A video's chapters as a WebVTT track. */
export function chaptersPath(orderId: string, fileId: string): string {
  return `/commande/${orderId}/fichiers/${fileId}/chapitres.vtt`;
}
