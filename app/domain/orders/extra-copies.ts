import { NBSP } from '../format';
import { COPY_MEDIA, type CopyMedium, MAX_EXTRA_COPIES } from '../pricing/pricing';
import { ADDRESS_FIELDS, type AddressFieldErrors, type PostalAddress, parseAddress } from './address';

/*
 * The « Copies supplémentaires » form (decision 029): which files (all of them or a
 * selection), on what (USB key or DVD), how many, and for whom (the buyer, whose address the
 * checkout asks like any order's, or a relative: their name and address, with a gift message).
 * Pure: the page and the share's page read the same form the same way; the server
 * (app/server/copies/extra-copies.server.ts) then checks the files against the order.
 */

export const GIFT_MESSAGE_MAX = 500;
/** At most this many files picked one by one (beyond: « tous les fichiers » or a group). */
export const MAX_SELECTED_FILES = 5000;

export const COPY_MEDIUM_LABELS: Readonly<Record<CopyMedium, { one: string; many: string }>> = {
  usb: { one: 'clé USB', many: 'clés USB' },
  disc: { one: 'DVD', many: 'DVD' },
};

/** « 2 clés USB », « 1 DVD ». */
export function copiesLabel(medium: CopyMedium, copies: number): string {
  const words = COPY_MEDIUM_LABELS[medium];
  return `${copies}${NBSP}${copies > 1 ? words.many : words.one}`;
}

export const EXTRA_COPY_MESSAGES = {
  medium: 'Choisissez une clé USB ou un DVD.',
  quantity: `Indiquez un nombre de copies entre 1 et ${MAX_EXTRA_COPIES}.`,
  noFile: 'Sélectionnez au moins un fichier à copier.',
  tooManyFiles: `Sélectionnez au plus ${MAX_SELECTED_FILES} fichiers un par un, ou choisissez «${NBSP}Tous les fichiers${NBSP}».`,
  unknownFile: 'Un des fichiers choisis n’est plus disponible. Rechargez la page et choisissez à nouveau.',
  giftMessageTooLong: `Le message ne doit pas dépasser ${GIFT_MESSAGE_MAX}${NBSP}caractères.`,
  invalid: `Vérifiez les champs signalés${NBSP}: rien n’a été commandé.`,
  filesGone: `Les fichiers de cette commande ne sont plus disponibles${NBSP}: ils ne peuvent plus être copiés.`,
  notPublished: 'Les fichiers de cette commande ne sont pas encore livrés.',
  extensionOpen: `Une prolongation de la conservation attend déjà son paiement${NBSP}: finalisez-la depuis «${NBSP}Mes commandes${NBSP}».`,
} as const;

/** A family share's copy page (/partage/{token}/copie). */
export const SHARE_COPY_MESSAGES = {
  outsideShare: `Un des fichiers choisis ne fait pas partie de ce partage${NBSP}: rien n’a été commandé. Rechargez la page et choisissez à nouveau.`,
  email: `Indiquez votre adresse e-mail${NBSP}: la confirmation et le suivi de votre commande y seront envoyés.`,
} as const;

export interface ExtraCopyChoice {
  medium: CopyMedium;
  quantity: number;
  /** 'all': every live file of the order (also those added later by a rework). */
  fileIds: 'all' | string[];
  /** For a relative: their address (the parcel's), and the message slipped in it. */
  recipient: PostalAddress | null;
  giftMessage: string | null;
}

/** What was typed, given back to the form with its messages (nothing a person typed is lost). */
export interface ExtraCopyFormValues {
  medium: string;
  quantity: string;
  scope: 'all' | 'selection';
  fileIds: string[];
  forWhom: 'me' | 'gift';
  recipient: Record<string, string>;
  giftMessage: string;
}

export type ExtraCopyFormErrors = Partial<Record<'medium' | 'quantity' | 'files' | 'giftMessage', string>> & {
  recipient?: AddressFieldErrors;
};

export type ExtraCopyFormResult =
  | { ok: true; value: ExtraCopyChoice; values: ExtraCopyFormValues }
  | { ok: false; errors: ExtraCopyFormErrors; values: ExtraCopyFormValues };

// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what it removes.
const CONTROL_BUT_NEWLINE = /[\u0000-\u0009\u000b-\u001f\u007f]/g;

/** Reads the posted form (a FormData's entries): every field checked, every message at once. */
export function parseExtraCopyForm(form: {
  get(name: string): unknown;
  getAll(name: string): unknown[];
}): ExtraCopyFormResult {
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === 'string' ? value : '';
  };
  const recipientRaw = Object.fromEntries(ADDRESS_FIELDS.map((field) => [field, text(`recipient.${field}`)]));
  const values: ExtraCopyFormValues = {
    medium: text('medium'),
    quantity: text('quantity').trim(),
    scope: text('scope') === 'selection' ? 'selection' : 'all',
    fileIds: form.getAll('fileId').filter((id): id is string => typeof id === 'string'),
    forWhom: text('forWhom') === 'gift' ? 'gift' : 'me',
    recipient: { ...recipientRaw, country: recipientRaw.country || 'FR' },
    giftMessage: text('giftMessage').replace(/\r\n?/g, '\n').replace(CONTROL_BUT_NEWLINE, '').trim(),
  };
  const errors: ExtraCopyFormErrors = {};
  const medium = (COPY_MEDIA as readonly string[]).includes(values.medium) ? (values.medium as CopyMedium) : null;
  if (!medium) errors.medium = EXTRA_COPY_MESSAGES.medium;
  const quantity = /^\d{1,3}$/.test(values.quantity) ? Number(values.quantity) : Number.NaN;
  if (!(quantity >= 1 && quantity <= MAX_EXTRA_COPIES)) errors.quantity = EXTRA_COPY_MESSAGES.quantity;
  const fileIds = [...new Set(values.fileIds)];
  if (values.scope === 'selection') {
    if (fileIds.length === 0) errors.files = EXTRA_COPY_MESSAGES.noFile;
    else if (fileIds.length > MAX_SELECTED_FILES) errors.files = EXTRA_COPY_MESSAGES.tooManyFiles;
  }
  let recipient: PostalAddress | null = null;
  let giftMessage: string | null = null;
  if (values.forWhom === 'gift') {
    const address = parseAddress(values.recipient);
    if (address.success) recipient = address.data;
    else errors.recipient = address.fieldErrors;
    if (values.giftMessage.length > GIFT_MESSAGE_MAX) errors.giftMessage = EXTRA_COPY_MESSAGES.giftMessageTooLong;
    giftMessage = values.giftMessage || null;
  }
  if (Object.keys(errors).length > 0 || !medium) return { ok: false, errors, values };
  return {
    ok: true,
    values,
    value: { medium, quantity, fileIds: values.scope === 'all' ? 'all' : fileIds, recipient, giftMessage },
  };
}

/** What the workshop copies for each order of extra copies (the board's cards). */
export interface CopyWork {
  sourceOrderId: string;
  sourceNumber: string;
  medium: CopyMedium;
  copies: number;
  fileCount: number;
  /** The first file names to copy (all when few), by support and name. */
  fileNames: string[];
  gift: boolean;
  giftMessage: string | null;
}

/** The same on the workshop board's card (app/components/admin/copy-work.tsx): the source order by its number. */
export type CopyWorkCard = Omit<CopyWork, 'sourceOrderId'>;
