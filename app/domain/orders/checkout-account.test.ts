import { describe, expect, it } from 'vitest';
import {
  accountTabOf,
  checkoutAccountValues,
  checkoutRegistrationSchema,
  checkoutSignInSchema,
  readAccountForm,
} from './checkout-account';

const register = (form: Record<string, string>) => readAccountForm(checkoutRegistrationSchema, form);

describe('the checkout’s account forms', () => {
  it('asks for both sign-in fields', () => {
    expect(readAccountForm(checkoutSignInSchema, { email: 'a@b.fr' })).toEqual({
      ok: false,
      error: 'Veuillez remplir tous les champs',
    });
    expect(readAccountForm(checkoutSignInSchema, { email: ' A@B.fr ', password: 'x' })).toEqual({
      ok: true,
      value: { email: 'a@b.fr', password: 'x' },
    });
  });

  it('registers with an e-mail, a password and the terms; names are optional', () => {
    expect(register({ email: '', password: 'Grenier-Photos-1987' })).toEqual({
      ok: false,
      error: 'Veuillez remplir tous les champs obligatoires',
    });
    expect(register({ email: 'a@b.fr', password: 'Grenier-Photos-1987' })).toEqual({
      ok: false,
      error: 'Vous devez accepter les conditions générales',
    });
    expect(register({ email: 'pas-une-adresse', password: 'Grenier-Photos-1987', acceptTerms: 'on' })).toMatchObject({
      ok: false,
      error: 'Veuillez saisir une adresse email valide',
    });
    expect(register({ email: 'a@b.fr', password: '123', acceptTerms: 'on' })).toMatchObject({ ok: false });
    expect(register({ email: 'A@b.fr', password: 'Grenier-Photos-1987', acceptTerms: 'on' })).toStrictEqual({
      ok: true,
      value: { email: 'a@b.fr', password: 'Grenier-Photos-1987', firstName: '', lastName: '', acceptTerms: 'on' },
    });
  });

  it('keeps what was typed, never the password', () => {
    expect(checkoutAccountValues({ email: ' a@b.fr ', password: 'secret', acceptTerms: 'on' })).toEqual({
      email: 'a@b.fr',
      firstName: '',
      lastName: '',
      acceptTerms: true,
    });
  });

  it('opens the guest tab unless told otherwise', () => {
    expect(accountTabOf('connexion')).toBe('connexion');
    expect(accountTabOf('autre')).toBe('invite');
    expect(accountTabOf(null)).toBe('invite');
  });
});
