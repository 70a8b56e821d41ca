import { NBSP } from '../format';
import { formatFileSize } from './delivered-files';

/*
 * The back office's resumable uploads (tus, decision 012), what the browser panel and the server
 * share: the address, the size of each PATCH (the body limit of the address follows it), the
 * metadata, the header carrying the outcome of a finished upload and its French wording.
 */

/** The tus endpoint: POST creates an upload, `…/<id>` receives its bytes (PATCH) and its offset (HEAD). */
export const UPLOADS_PATH = '/admin/api/televersements';

/**
 * Bytes per PATCH. A network cut loses at most this much; server/body-limits.ts allows the path
 * this plus 1 MiB (UPLOAD_BODY_LIMIT_BYTES).
 */
export const UPLOAD_CHUNK_BYTES = 16 * 1024 * 1024;
export const UPLOAD_BODY_LIMIT_BYTES = UPLOAD_CHUNK_BYTES + 1024 * 1024;

/** The largest file accepted (a long VHS tape in a high bitrate is tens of gigabytes). */
export const MAX_UPLOAD_BYTES = 200 * 1000 ** 3;

/** The support key of files that belong to no line of the order. */
export const OTHER_SUPPORT = 'autres';
export const OTHER_SUPPORT_LABEL = 'Autres fichiers';

/**
 * The response header of the last PATCH: the outcome of storing the file, URI-encoded JSON
 * (`UploadOutcome`). Same-origin requests read it without any CORS exposure.
 */
export const UPLOAD_RESULT_HEADER = 'Soovenirs-Upload-Result';

export type UploadOutcome =
  | { status: 'stored'; name: string; sha256: string; fileId: string }
  | { status: 'renamed'; name: string; requestedName: string; sha256: string; fileId: string }
  | { status: 'already_there'; name: string; sha256: string; fileId: string };

export function encodeUploadOutcome(outcome: UploadOutcome): string {
  return encodeURIComponent(JSON.stringify(outcome));
}

export function decodeUploadOutcome(header: string | null | undefined): UploadOutcome | null {
  if (!header) return null;
  try {
    const value = JSON.parse(decodeURIComponent(header)) as Partial<UploadOutcome>;
    if (
      (value.status === 'stored' || value.status === 'renamed' || value.status === 'already_there') &&
      typeof value.name === 'string' &&
      typeof value.sha256 === 'string' &&
      typeof value.fileId === 'string'
    ) {
      return value as UploadOutcome;
    }
  } catch {
    // not ours
  }
  return null;
}

/** « Déposé », « Déjà présent », « Renommé en photo (2).jpg ». */
export function describeUploadOutcome(outcome: UploadOutcome | null): string {
  if (!outcome) return 'Déposé';
  switch (outcome.status) {
    case 'stored':
      return 'Déposé';
    case 'already_there':
      return 'Déjà présent';
    case 'renamed':
      return `Renommé en «${NBSP}${outcome.name}${NBSP}»`;
  }
}

/** « 1,2 Go sur 3,4 Go ». */
export function describeUploadProgress(sent: number, total: number): string {
  return `${formatFileSize(sent)} sur ${formatFileSize(total)}`;
}

/** Whole percents, never 100 before the last byte. */
export function uploadPercent(sent: number, total: number): number {
  if (total <= 0) return sent > 0 ? 100 : 0;
  if (sent >= total) return 100;
  return Math.min(99, Math.floor((sent / total) * 100));
}

/** The refusals of the upload endpoint, in French (the panel shows them as they are). */
export const UPLOAD_MESSAGES = {
  unauthenticated: `Non authentifié${NBSP}: connectez-vous pour déposer des fichiers.`,
  forbidden: `Accès non autorisé${NBSP}: seul le personnel dépose les fichiers des commandes.`,
  foreignOrigin: `Requête refusée${NBSP}: origine non autorisée.`,
  sessionUnchecked: `La session n’a pas pu être vérifiée${NBSP}: veuillez réessayer.`,
  orderNotFound: 'Commande introuvable.',
  unknownSupport: `Support inconnu pour cette commande${NBSP}: choisissez l’un de ses supports ou «${NBSP}${OTHER_SUPPORT_LABEL}${NBSP}».`,
  missingName: `Nom de fichier manquant${NBSP}: le fichier n’a pas été déposé.`,
  uploadNotFound: `Téléversement introuvable${NBSP}: il est terminé, annulé ou expiré. Déposez le fichier à nouveau.`,
  offsetConflict: `Le serveur n’a pas reçu les mêmes octets que le navigateur${NBSP}: reprise du téléversement.`,
  tooLarge: `Fichier trop volumineux${NBSP}: ${formatFileSize(MAX_UPLOAD_BYTES)} au plus.`,
  storeFailed: `Le fichier a été reçu mais n’a pas pu être enregistré${NBSP}: déposez-le à nouveau.`,
  invalidRequest: 'Requête de téléversement invalide.',
  // A chunk of an accepted upload, refused because something else filled the server's disk meanwhile.
  diskFullDuring: `Le disque des fichiers du serveur est plein${NBSP}: le téléversement est interrompu. Reprenez-le quand de la place aura été libérée.`,
  lengthRequired: `Taille du fichier manquante${NBSP}: le navigateur doit l’annoncer avant l’envoi.`,
  serverError: `Une erreur est survenue pendant le téléversement${NBSP}: veuillez réessayer.`,
} as const;

/**
 * A new upload whose declared size does not fit the free space of the files' disk (less its
 * reserve and the uploads in progress): refused before a byte is sent.
 */
export function diskFullMessage(declaredBytes: number, availableBytes: number): string {
  const room =
    availableBytes > 0
      ? `il reste ${formatFileSize(availableBytes)} de place pour les dépôts`
      : 'il ne reste plus de place pour les dépôts';
  return `Espace disque insuffisant sur le serveur${NBSP}: ce fichier fait ${formatFileSize(declaredBytes)} et ${room}. Libérez de la place ou prévenez l’administrateur du site.`;
}

/** A French message for the statuses of the tus protocol's own refusals. */
export function uploadRefusalMessage(status: number): string {
  if (status === 401) return UPLOAD_MESSAGES.unauthenticated;
  if (status === 403) return UPLOAD_MESSAGES.forbidden;
  if (status === 404 || status === 410) return UPLOAD_MESSAGES.uploadNotFound;
  if (status === 409) return UPLOAD_MESSAGES.offsetConflict;
  if (status === 413) return UPLOAD_MESSAGES.tooLarge;
  if (status >= 400 && status < 500) return UPLOAD_MESSAGES.invalidRequest;
  return UPLOAD_MESSAGES.serverError;
}
