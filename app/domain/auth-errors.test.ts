import { describe, expect, it } from 'vitest';
import {
  AUTH_MESSAGES,
  type AuthFlow,
  authErrorFrom,
  authErrorMessage,
  authErrorTitle,
  authFlowFromPath,
} from './auth-errors';

describe('authErrorMessage', () => {
  it.each<[string | { code?: string; status?: number } | null | undefined, AuthFlow, string]>([
    ['INVALID_EMAIL_OR_PASSWORD', 'sign-in', 'Email ou mot de passe incorrect'],
    [{ code: 'INVALID_EMAIL_OR_PASSWORD', status: 401 }, 'sign-in', 'Email ou mot de passe incorrect'],
    ['USER_NOT_FOUND', 'sign-in', 'Email ou mot de passe incorrect'],
    ['CREDENTIAL_ACCOUNT_NOT_FOUND', 'sign-in', 'Email ou mot de passe incorrect'],
    ['INVALID_PASSWORD', 'sign-in', 'Email ou mot de passe incorrect'],
    ['INVALID_PASSWORD', 'change-password', 'Le mot de passe actuel est incorrect'],
    ['PASSWORD_TOO_SHORT', 'sign-up', 'Le mot de passe doit contenir au moins 6 caractères'],
    ['PASSWORD_TOO_SHORT', 'reset-password', 'Le mot de passe doit contenir au moins 6 caractères'],
    ['PASSWORD_TOO_LONG', 'sign-up', 'Le mot de passe ne doit pas dépasser 128 caractères'],
    ['PASSWORD_TOO_COMMON', 'sign-up', 'Ce mot de passe fait partie des plus courants : choisissez-en un autre.'],
    ['INVALID_EMAIL', 'sign-up', 'Veuillez saisir une adresse email valide'],
    ['USER_ALREADY_EXISTS', 'sign-up', AUTH_MESSAGES.signUpRefused],
    ['USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL', 'sign-up', AUTH_MESSAGES.signUpRefused],
    ['FAILED_TO_CREATE_USER', 'sign-up', AUTH_MESSAGES.signUpRefused],
    ['USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL', 'admin', 'Un compte existe déjà avec cette adresse email.'],
    ['INVALID_TOKEN', 'reset-password', 'Le lien de récupération est invalide ou a expiré'],
    ['INVALID_TOKEN', 'recovery-link', 'Le lien de récupération est invalide ou a expiré'],
    ['INVALID_TOKEN', 'other', 'Le lien de récupération est invalide ou a expiré'],
    ['TOKEN_EXPIRED', 'reset-password', 'Le lien de récupération est invalide ou a expiré'],
    ['EXPIRED_TOKEN', 'magic-link', 'Le lien de connexion est invalide ou a expiré'],
    ['invalid_token', 'magic-link', 'Le lien de connexion est invalide ou a expiré'],
    ['new_user_signup_disabled', 'magic-link', 'Le lien de connexion est invalide ou a expiré'],
    ['failed_to_create_session', 'magic-link', 'Impossible de traiter le lien de connexion'],
    [{ status: 429 }, 'sign-in', 'Trop de tentatives. Veuillez patienter avant de réessayer.'],
    ['RATE_LIMITED', 'other', 'Trop de tentatives. Veuillez patienter avant de réessayer.'],
    ['UNAUTHORIZED', 'session', AUTH_MESSAGES.sessionMissing],
    ['SESSION_EXPIRED', 'change-password', AUTH_MESSAGES.sessionMissing],
    ['BANNED_USER', 'sign-in', AUTH_MESSAGES.banned],
    ['INVALID_ORIGIN', 'sign-in', 'Requête refusée : origine non autorisée.'],
    ['VALIDATION_ERROR', 'sign-in', 'Veuillez remplir tous les champs'],
    ['VALIDATION_ERROR', 'forgot-password', 'Veuillez saisir votre email'],
    ['VALIDATION_ERROR', 'sign-up', 'Veuillez remplir tous les champs obligatoires'],
    ['YOU_ARE_NOT_ALLOWED_TO_LIST_USERS', 'admin', AUTH_MESSAGES.forbidden],
    ['YOU_CANNOT_REMOVE_YOURSELF', 'admin', 'Vous ne pouvez pas supprimer votre propre compte.'],
    // Unknown codes: the default of the flow.
    ['SOMETHING_NEW', 'sign-in', 'Email ou mot de passe incorrect'],
    ['SOMETHING_NEW', 'sign-up', "Une erreur est survenue lors de l'inscription"],
    ['SOMETHING_NEW', 'forgot-password', "Impossible d'envoyer l'email de récupération"],
    ['SOMETHING_NEW', 'reset-password', 'Impossible de mettre à jour le mot de passe'],
    ['SOMETHING_NEW', 'recovery-link', 'Impossible de traiter le lien de récupération'],
    ['SOMETHING_NEW', 'magic-link', 'Impossible de traiter le lien de connexion'],
    ['SOMETHING_NEW', 'sign-out', 'Erreur lors de la déconnexion'],
    ['SOMETHING_NEW', 'other', 'Une erreur est survenue. Veuillez réessayer.'],
    [null, 'other', 'Une erreur est survenue. Veuillez réessayer.'],
    [undefined, 'sign-up', "Une erreur est survenue lors de l'inscription"],
    ['', 'other', 'Une erreur est survenue. Veuillez réessayer.'],
    // A server failure never reads as "wrong password".
    [{ status: 500 }, 'sign-in', 'Une erreur est survenue. Veuillez réessayer.'],
    [{ code: 'INTERNAL', status: 503 }, 'sign-up', 'Une erreur est survenue. Veuillez réessayer.'],
  ])('%j in %s -> %s', (error, flow, expected) => {
    expect(authErrorMessage(error, flow)).toBe(expected);
  });

  it('defaults to the generic French message', () => {
    expect(authErrorMessage(undefined)).toBe('Une erreur est survenue. Veuillez réessayer.');
  });

  it('never says that an account exists, whatever the code and flow', () => {
    const flows: AuthFlow[] = [
      'sign-in',
      'sign-up',
      'forgot-password',
      'recovery-link',
      'reset-password',
      'magic-link',
    ];
    const codes = [
      'USER_ALREADY_EXISTS',
      'USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL',
      'USER_NOT_FOUND',
      'CREDENTIAL_ACCOUNT_NOT_FOUND',
      'USER_EMAIL_NOT_FOUND',
      'new_user_signup_disabled',
    ];
    for (const flow of flows) {
      for (const code of codes) {
        const message = authErrorMessage(code, flow);
        expect(message, `${code} in ${flow}`).not.toMatch(/existe|inconnu|introuvable|aucun compte/i);
      }
    }
  });

  it('gives the same sign-in message for an unknown address and a wrong password', () => {
    expect(authErrorMessage('USER_NOT_FOUND', 'sign-in')).toBe(
      authErrorMessage('INVALID_EMAIL_OR_PASSWORD', 'sign-in'),
    );
  });

  it('has no English message left', () => {
    for (const message of Object.values(AUTH_MESSAGES)) {
      expect(message).not.toMatch(/\b(the|invalid|password|user|error|please)\b/i);
    }
  });
});

describe('authErrorTitle', () => {
  it.each<[AuthFlow, string]>([
    ['sign-in', 'Échec de la connexion'],
    ['sign-up', "Échec de l'inscription"],
    ['forgot-password', "Erreur d'envoi"],
    ['recovery-link', 'Erreur de récupération'],
    ['reset-password', 'Erreur de mise à jour'],
    ['magic-link', 'Erreur de connexion'],
    ['sign-out', 'Erreur lors de la déconnexion'],
  ])('%s -> %s', (flow, title) => {
    expect(authErrorTitle(flow)).toBe(title);
  });
});

describe('authFlowFromPath', () => {
  it.each<[string, AuthFlow]>([
    ['/sign-in/email', 'sign-in'],
    ['/sign-up/email', 'sign-up'],
    ['/request-password-reset', 'forgot-password'],
    ['/reset-password', 'reset-password'],
    ['/reset-password/abc123', 'recovery-link'],
    ['/change-password', 'change-password'],
    ['/sign-in/magic-link', 'magic-link'],
    ['/magic-link/verify', 'magic-link'],
    ['/sign-out', 'sign-out'],
    ['/get-session', 'session'],
    ['/admin/list-users', 'admin'],
    ['/ok', 'other'],
    ['/sign-in/email/', 'sign-in'],
  ])('%s -> %s', (path, flow) => {
    expect(authFlowFromPath(path)).toBe(flow);
  });
});

describe('authErrorFrom', () => {
  it.each<[unknown, { code?: string; status?: number }]>([
    [
      { statusCode: 401, body: { code: 'INVALID_EMAIL_OR_PASSWORD', message: 'Invalid email or password' } },
      { code: 'INVALID_EMAIL_OR_PASSWORD', status: 401 },
    ],
    [{ status: 429 }, { code: undefined, status: 429 }],
    [{ code: 'INVALID_TOKEN' }, { code: 'INVALID_TOKEN', status: undefined }],
    [new Error('boom'), { code: undefined, status: undefined }],
    [null, {}],
    ['text', {}],
  ])('%j', (error, expected) => {
    expect(authErrorFrom(error)).toEqual(expected);
  });
});
