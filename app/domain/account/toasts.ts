import { AUTH_MESSAGES } from '../auth-errors';

/*
 * The toasts of the accounts, by key. A redirect carries a key in a
 * short-lived cookie (app/server/account/flash.server.ts), never free text: nobody can make the
 * shop display words of their choosing.
 */

export type ToastKind = 'success' | 'error' | 'info';

export interface ToastMessage {
  kind: ToastKind;
  title: string;
  description?: string;
}

export const ACCOUNT_TOASTS = {
  'recovery-validated': {
    kind: 'success',
    title: 'Lien de récupération validé',
    description: 'Vous pouvez maintenant changer votre mot de passe',
  },
  'recovery-invalid': {
    kind: 'error',
    title: 'Erreur de récupération',
    description: AUTH_MESSAGES.recoveryLinkInvalid,
  },
  'recovery-failed': { kind: 'error', title: 'Erreur de récupération', description: AUTH_MESSAGES.recoveryLinkFailed },
  'magic-link-success': {
    kind: 'success',
    title: 'Connexion réussie',
    description: 'Vous êtes maintenant connecté via le lien magique',
  },
  'magic-link-invalid': { kind: 'error', title: 'Erreur de connexion', description: AUTH_MESSAGES.magicLinkInvalid },
  'magic-link-failed': { kind: 'error', title: 'Erreur de connexion', description: AUTH_MESSAGES.magicLinkFailed },
  registered: { kind: 'success', title: 'Inscription réussie', description: 'Bienvenue sur votre compte' },
  'recovery-email-sent': {
    kind: 'success',
    title: 'Email de récupération envoyé',
    description: 'Vérifiez votre boîte mail pour réinitialiser votre mot de passe',
  },
  'magic-link-sent': {
    kind: 'success',
    title: 'Lien de connexion envoyé',
    description: 'Si un compte existe à cette adresse, vous allez recevoir un lien pour vous connecter.',
  },
  'password-updated': {
    kind: 'success',
    title: 'Mot de passe mis à jour',
    description: 'Votre mot de passe a été changé avec succès',
  },
  'signed-out': { kind: 'info', title: 'Déconnexion réussie' },
  'profile-updated': {
    kind: 'success',
    title: 'Profil mis à jour',
    description: 'Vos informations ont été enregistrées',
  },
  'business-profile-saved': {
    kind: 'success',
    title: 'Facturation professionnelle enregistrée',
    description: 'Vos prochaines commandes la reprendront.',
  },
  'business-profile-removed': {
    kind: 'success',
    title: 'Facturation professionnelle supprimée',
    description: 'Vos prochaines commandes seront à titre personnel.',
  },
  'email-verified': {
    kind: 'success',
    title: 'Adresse e-mail confirmée',
    description: 'Merci : votre adresse e-mail est confirmée.',
  },
  'email-verification-invalid': {
    kind: 'error',
    title: 'Erreur de confirmation',
    description: 'Le lien de confirmation est invalide ou a expiré. Connectez-vous pour en recevoir un nouveau.',
  },
  'email-verification-sent': {
    kind: 'success',
    title: 'Email de confirmation envoyé',
    description: 'Vérifiez votre boîte mail et cliquez sur le lien pour confirmer votre adresse.',
  },
  'admin-created': {
    kind: 'success',
    title: 'Administrateur créé',
    description: 'Connectez-vous avec ce compte pour accéder au tableau de bord.',
  },
  'withdrawal-recorded': {
    kind: 'success',
    title: 'Rétractation enregistrée',
    description: 'Un accusé de réception vous a été envoyé par email.',
  },
} as const satisfies Record<string, ToastMessage>;

export type AccountToastKey = keyof typeof ACCOUNT_TOASTS;

export function isAccountToastKey(value: unknown): value is AccountToastKey {
  return typeof value === 'string' && Object.hasOwn(ACCOUNT_TOASTS, value);
}

export function accountToast(key: AccountToastKey): ToastMessage {
  return ACCOUNT_TOASTS[key];
}
