import { COMMON_PASSWORD_CODE } from './common-passwords';
import { NBSP } from './format';
import { FORBIDDEN_CHARACTER_MESSAGE } from './text-input';

/*
 * The one place where an authentication failure becomes French text.
 * Better Auth reports failures as `{ code, message }` with English messages; the HTTP handler
 * (app/server/auth/auth.server.ts) and the route actions that call `auth.api` both go through
 * `authErrorMessage`, so a customer never sees English and the wording stays consistent.
 *
 * Rule: no message may reveal whether an account exists. Sign-in says "Email ou mot de passe
 * incorrect" for an unknown address and for a wrong password alike; a password reset or a magic
 * link is "sent" whatever the address; a sign-up refused because the address is taken gets the
 * same message as any other failed sign-up (docs/decisions/005-auth-errors-and-account-enumeration.md).
 */

/**
 * Every staff account's password (invitation, first administrator, change, reset, admin paths): a
 * longer one than customers', whose accounts open no back office.
 */
export const STAFF_PASSWORD_MIN_LENGTH = 12;
export const STAFF_PASSWORD_TOO_SHORT_CODE = 'STAFF_PASSWORD_TOO_SHORT';

/** Which screen or action the error belongs to: the same code reads differently in each. */
export type AuthFlow =
  | 'sign-in'
  | 'sign-up'
  | 'forgot-password'
  | 'recovery-link'
  | 'reset-password'
  | 'change-password'
  | 'magic-link'
  | 'sign-out'
  | 'session'
  | 'admin'
  | 'other';

export const AUTH_MESSAGES = {
  fallback: 'Une erreur est survenue. Veuillez réessayer.',
  invalidCredentials: 'Email ou mot de passe incorrect',
  fillAllFields: 'Veuillez remplir tous les champs',
  fillRequiredFields: 'Veuillez remplir tous les champs obligatoires',
  emailRequired: 'Veuillez saisir votre email',
  invalidEmail: 'Veuillez saisir une adresse email valide',
  passwordTooShort: 'Le mot de passe doit contenir au moins 6 caractères',
  passwordTooLong: 'Le mot de passe ne doit pas dépasser 128 caractères',
  passwordTooCommon: 'Ce mot de passe fait partie des plus courants : choisissez-en un autre.',
  passwordsDoNotMatch: 'Les mots de passe ne correspondent pas',
  termsRequired: 'Vous devez accepter les conditions générales',
  currentPasswordIncorrect: 'Le mot de passe actuel est incorrect',
  signUpFailed: "Une erreur est survenue lors de l'inscription",
  // A taken address gets this, exactly like any other refused sign-up: it never says "exists".
  signUpRefused:
    "Une erreur est survenue lors de l'inscription. Si vous avez déjà un compte, connectez-vous ou réinitialisez votre mot de passe.",
  recoveryLinkInvalid: 'Le lien de récupération est invalide ou a expiré',
  recoveryLinkFailed: 'Impossible de traiter le lien de récupération',
  magicLinkInvalid: 'Le lien de connexion est invalide ou a expiré',
  magicLinkFailed: 'Impossible de traiter le lien de connexion',
  resetEmailFailed: "Impossible d'envoyer l'email de récupération",
  passwordUpdateFailed: 'Impossible de mettre à jour le mot de passe',
  signOutFailed: 'Erreur lors de la déconnexion',
  rateLimited: 'Trop de tentatives. Veuillez patienter avant de réessayer.',
  sessionMissing: "Vous n'êtes pas connecté ou votre session a expiré. Veuillez vous reconnecter.",
  banned: "Votre compte est suspendu. Contactez-nous si vous pensez qu'il s'agit d'une erreur.",
  emailNotVerified: "Votre adresse email n'est pas encore vérifiée.",
  emailAlreadyVerified: 'Votre adresse email est déjà confirmée.',
  fieldTooLong: 'Un des champs est trop long.',
  forbiddenOrigin: 'Requête refusée : origine non autorisée.',
  forbidden: "Vous n'avez pas les droits nécessaires pour cette action.",
  adminUserExists: 'Un compte existe déjà avec cette adresse email.',
  cannotBanSelf: 'Vous ne pouvez pas suspendre votre propre compte.',
  cannotRemoveSelf: 'Vous ne pouvez pas supprimer votre propre compte.',
  cannotImpersonateAdmins: "Vous ne pouvez pas prendre l'identité d'un administrateur.",
  forbiddenCharacter: FORBIDDEN_CHARACTER_MESSAGE,
  endpointNotFound: "Cette adresse ne correspond à aucune action d'authentification.",
  methodNotAllowed: 'Méthode non autorisée',
  twoFactorCodeInvalid: 'Code de vérification incorrect. Vérifiez l’heure de votre téléphone et réessayez.',
  twoFactorLocked: `Trop de codes incorrects${NBSP}: la vérification est bloquée quelques minutes.`,
  twoFactorExpired: `La vérification a expiré${NBSP}: connectez-vous de nouveau.`,
  twoFactorAlreadyEnabled: 'La double authentification est déjà activée.',
  staffPasswordTooShort: `Le mot de passe d’un membre de l’équipe doit contenir au moins ${STAFF_PASSWORD_MIN_LENGTH} caractères`,
} as const;

/** Our code for a text field holding the NUL character (see domain/text-input.ts). */
export const FORBIDDEN_CHARACTER_CODE = 'FORBIDDEN_CHARACTER';

/** Our code for a registration sent without `acceptTerms: true`. */
export const TERMS_NOT_ACCEPTED_CODE = 'TERMS_NOT_ACCEPTED';

/** Our code for an account field longer than FIELD_LIMITS allows. */
export const FIELD_TOO_LONG_CODE = 'FIELD_TOO_LONG';

/**
 * The longest value each account field accepts, on the forms and on Better Auth's API alike
 * (sign-up, update-user): an address is at most 254 characters (RFC 5321). Passwords are bounded
 * by Better Auth itself (maxPasswordLength, 128: PASSWORD_TOO_LONG).
 */
export const FIELD_LIMITS = {
  name: 100,
  firstName: 100,
  lastName: 100,
  email: 254,
  image: 2000,
  callbackURL: 2000,
} as const;

const FIELD_LABELS: Record<string, string> = {
  name: 'Nom',
  firstName: 'Prénom',
  lastName: 'Nom',
  email: 'Email',
  image: 'Image',
  callbackURL: 'Adresse de retour',
};

/** « Le champ « Prénom » ne doit pas dépasser 100 caractères. » */
export function fieldTooLongMessage(field: string): string {
  const max = FIELD_LIMITS[field as keyof typeof FIELD_LIMITS];
  const label = FIELD_LABELS[field] ?? field;
  return max
    ? `Le champ «\u00a0${label}\u00a0» ne doit pas dépasser ${max}\u00a0caractères.`
    : `Le champ «\u00a0${label}\u00a0» est trop long.`;
}

const M = AUTH_MESSAGES;

/** Toast titles, per flow. */
const TITLES: Record<AuthFlow, string> = {
  'sign-in': 'Échec de la connexion',
  'sign-up': "Échec de l'inscription",
  'forgot-password': "Erreur d'envoi",
  'recovery-link': 'Erreur de récupération',
  'reset-password': 'Erreur de mise à jour',
  'change-password': 'Erreur de mise à jour',
  'magic-link': 'Erreur de connexion',
  'sign-out': 'Erreur lors de la déconnexion',
  session: 'Erreur',
  admin: 'Erreur',
  other: 'Erreur',
};

/** What a flow says when the code is unknown (or absent). */
const FLOW_FALLBACK: Record<AuthFlow, string> = {
  'sign-in': M.invalidCredentials,
  'sign-up': M.signUpFailed,
  'forgot-password': M.resetEmailFailed,
  'recovery-link': M.recoveryLinkFailed,
  'reset-password': M.passwordUpdateFailed,
  'change-password': M.passwordUpdateFailed,
  'magic-link': M.magicLinkFailed,
  'sign-out': M.signOutFailed,
  session: M.fallback,
  admin: M.fallback,
  other: M.fallback,
};

type Rule = string | ((flow: AuthFlow) => string);

const invalidLink: Rule = (flow) => (flow === 'magic-link' ? M.magicLinkInvalid : M.recoveryLinkInvalid);
const signUpRefused: Rule = (flow) => (flow === 'admin' ? M.adminUserExists : M.signUpRefused);
// An unknown user or a missing password account must read like a wrong password at sign-in.
const unknownAccount: Rule = (flow) => {
  if (flow === 'sign-in') return M.invalidCredentials;
  if (flow === 'magic-link' || flow === 'recovery-link' || flow === 'reset-password') return invalidLink(flow);
  return FLOW_FALLBACK[flow];
};
const missingFields: Rule = (flow) => {
  if (flow === 'sign-in') return M.fillAllFields;
  if (flow === 'forgot-password' || flow === 'magic-link') return M.emailRequired;
  return M.fillRequiredFields;
};

/** Better Auth's codes (core, admin plugin, magic-link redirects) and ours. */
const RULES: Record<string, Rule> = {
  INVALID_EMAIL_OR_PASSWORD: M.invalidCredentials,
  INVALID_PASSWORD: (flow) => (flow === 'change-password' ? M.currentPasswordIncorrect : M.invalidCredentials),
  USER_NOT_FOUND: unknownAccount,
  CREDENTIAL_ACCOUNT_NOT_FOUND: unknownAccount,
  USER_EMAIL_NOT_FOUND: unknownAccount,
  USER_ALREADY_EXISTS: signUpRefused,
  USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL: signUpRefused,
  FAILED_TO_CREATE_USER: (flow) => (flow === 'sign-up' ? M.signUpRefused : FLOW_FALLBACK[flow]),
  PASSWORD_TOO_SHORT: M.passwordTooShort,
  PASSWORD_TOO_LONG: M.passwordTooLong,
  [COMMON_PASSWORD_CODE]: M.passwordTooCommon,
  INVALID_EMAIL: M.invalidEmail,
  INVALID_TOKEN: invalidLink,
  TOKEN_EXPIRED: invalidLink,
  EXPIRED_TOKEN: invalidLink,
  ATTEMPTS_EXCEEDED: invalidLink,
  // Magic-link verification redirects with these (lower case) in `?error=`.
  NEW_USER_SIGNUP_DISABLED: invalidLink,
  FAILED_TO_CREATE_SESSION: (flow) => (flow === 'magic-link' ? M.magicLinkFailed : FLOW_FALLBACK[flow]),
  UNAUTHORIZED: M.sessionMissing,
  SESSION_EXPIRED: M.sessionMissing,
  SESSION_NOT_FRESH: M.sessionMissing,
  FAILED_TO_GET_SESSION: M.sessionMissing,
  RATE_LIMITED: M.rateLimited,
  TOO_MANY_REQUESTS: M.rateLimited,
  BANNED_USER: M.banned,
  EMAIL_NOT_VERIFIED: M.emailNotVerified,
  INVALID_ORIGIN: M.forbiddenOrigin,
  MISSING_OR_NULL_ORIGIN: M.forbiddenOrigin,
  CROSS_SITE_NAVIGATION_LOGIN_BLOCKED: M.forbiddenOrigin,
  INVALID_CALLBACK_URL: M.forbiddenOrigin,
  INVALID_REDIRECT_URL: M.forbiddenOrigin,
  INVALID_ERROR_CALLBACK_URL: M.forbiddenOrigin,
  INVALID_NEW_USER_CALLBACK_URL: M.forbiddenOrigin,
  VALIDATION_ERROR: missingFields,
  MISSING_FIELD: missingFields,
  BODY_MUST_BE_AN_OBJECT: missingFields,
  YOU_CANNOT_BAN_YOURSELF: M.cannotBanSelf,
  YOU_CANNOT_REMOVE_YOURSELF: M.cannotRemoveSelf,
  YOU_CANNOT_IMPERSONATE_ADMINS: M.cannotImpersonateAdmins,
  [FORBIDDEN_CHARACTER_CODE]: M.forbiddenCharacter,
  [TERMS_NOT_ACCEPTED_CODE]: M.termsRequired,
  [FIELD_TOO_LONG_CODE]: M.fieldTooLong,
  EMAIL_ALREADY_VERIFIED: M.emailAlreadyVerified,
  NOT_FOUND: M.endpointNotFound,
  METHOD_NOT_ALLOWED: M.methodNotAllowed,
  // Two-factor sign-in (docs/decisions/016).
  INVALID_CODE: M.twoFactorCodeInvalid,
  INVALID_BACKUP_CODE: M.twoFactorCodeInvalid,
  ACCOUNT_TEMPORARILY_LOCKED: M.twoFactorLocked,
  TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE: M.twoFactorLocked,
  INVALID_TWO_FACTOR_COOKIE: M.twoFactorExpired,
  TOTP_ALREADY_ENABLED: M.twoFactorAlreadyEnabled,
  [STAFF_PASSWORD_TOO_SHORT_CODE]: M.staffPasswordTooShort,
};

export interface AuthErrorLike {
  code?: string | null | undefined;
  status?: number | null | undefined;
}

/**
 * The French message for a failed authentication call.
 *
 * @param error a Better Auth code ("INVALID_TOKEN", "invalid_token"), or `{ code, status }`
 * @param flow the screen or action, which decides the wording of ambiguous codes and the default
 */
export function authErrorMessage(error: AuthErrorLike | string | null | undefined, flow: AuthFlow = 'other'): string {
  const { code, status } = typeof error === 'string' ? { code: error, status: undefined } : (error ?? {});
  const key = code?.trim().toUpperCase();
  if (status === 429) return M.rateLimited;
  if (key) {
    const rule = RULES[key];
    if (rule) return typeof rule === 'string' ? rule : rule(flow);
    if (key.startsWith('YOU_ARE_NOT_ALLOWED_TO_')) return M.forbidden;
  }
  // A server failure must not read as "wrong password".
  if (status !== undefined && status !== null && status >= 500) return M.fallback;
  if (status === 403 && flow === 'admin') return M.forbidden;
  return FLOW_FALLBACK[flow];
}

/** The toast title for a failure in this flow. */
export function authErrorTitle(flow: AuthFlow): string {
  return TITLES[flow];
}

/**
 * The flow of a Better Auth endpoint, from its path below /api/auth (e.g. "/sign-in/email"), for
 * the HTTP handler that rewrites error messages.
 */
export function authFlowFromPath(path: string): AuthFlow {
  const p = path.replace(/\/+$/, '');
  if (p.startsWith('/sign-in/magic-link') || p.startsWith('/magic-link/')) return 'magic-link';
  if (p.startsWith('/sign-in')) return 'sign-in';
  if (p.startsWith('/sign-up')) return 'sign-up';
  if (p === '/request-password-reset' || p === '/forget-password') return 'forgot-password';
  if (p.startsWith('/reset-password/')) return 'recovery-link';
  if (p === '/reset-password') return 'reset-password';
  if (p === '/change-password' || p === '/set-password') return 'change-password';
  if (p === '/sign-out') return 'sign-out';
  if (p.startsWith('/admin/')) return 'admin';
  if (p === '/get-session' || p.endsWith('-session') || p.endsWith('-sessions') || p === '/update-user')
    return 'session';
  return 'other';
}

/**
 * `{ code, status }` of whatever an `auth.api` call threw (Better Auth's APIError carries
 * `statusCode` and `body.code`); duck-typed so that this module stays free of server imports.
 */
export function authErrorFrom(error: unknown): AuthErrorLike {
  if (!error || typeof error !== 'object') return {};
  const e = error as { statusCode?: unknown; status?: unknown; body?: { code?: unknown }; code?: unknown };
  const status = typeof e.statusCode === 'number' ? e.statusCode : typeof e.status === 'number' ? e.status : undefined;
  const code = typeof e.body?.code === 'string' ? e.body.code : typeof e.code === 'string' ? e.code : undefined;
  return { code, status };
}
