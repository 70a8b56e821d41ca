import { parseWithZod } from '@conform-to/zod/v4';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { accountTabOf, checkoutRegistrationSchema, checkoutSignInSchema } from './checkout-account';

/** The form posted as the browser sends it, read as the checkout's action reads it (empty fields kept). */
function post(schema: z.ZodType, form: Record<string, string>) {
  const submission = parseWithZod(new URLSearchParams(form), { schema, disableAutoCoercion: true });
  if (submission.status === 'success') return { ok: true, value: submission.value };
  const reply = submission.reply({ hideFields: ['password'] });
  return { ok: false, formErrors: reply.error?.[''] ?? null, kept: reply.initialValue };
}

const register = (form: Record<string, string>) => post(checkoutRegistrationSchema, form);

describe('the checkout’s account forms', () => {
  it('asks for both sign-in fields', () => {
    expect(post(checkoutSignInSchema, { email: 'a@b.fr', password: '' })).toMatchObject({
      ok: false,
      formErrors: ['Veuillez remplir tous les champs'],
    });
    expect(post(checkoutSignInSchema, { email: ' A@B.fr ', password: 'x' })).toEqual({
      ok: true,
      value: { email: 'a@b.fr', password: 'x' },
    });
  });

  it('registers with an e-mail, a password and the terms; names are optional', () => {
    expect(register({ email: '', password: 'Grenier-Photos-1987' })).toMatchObject({
      ok: false,
      formErrors: ['Veuillez remplir tous les champs obligatoires'],
    });
    expect(register({ email: 'a@b.fr', password: 'Grenier-Photos-1987' })).toMatchObject({
      ok: false,
      formErrors: ['Vous devez accepter les conditions générales'],
    });
    expect(register({ email: 'pas-une-adresse', password: 'Grenier-Photos-1987', acceptTerms: 'on' })).toMatchObject({
      ok: false,
      formErrors: ['Veuillez saisir une adresse email valide'],
    });
    expect(register({ email: 'a@b.fr', password: '123', acceptTerms: 'on' })).toMatchObject({ ok: false });
    expect(register({ email: 'A@b.fr', password: 'Grenier-Photos-1987', acceptTerms: 'on' })).toStrictEqual({
      ok: true,
      value: { email: 'a@b.fr', password: 'Grenier-Photos-1987', firstName: '', lastName: '', acceptTerms: 'on' },
    });
  });

  it('sends back what was typed, never the password', () => {
    const refused = register({ email: ' a@b.fr ', firstName: 'Irène', password: 'secret' });
    expect(refused.kept).toEqual({ email: ' a@b.fr ', firstName: 'Irène' });
  });

  it('opens the guest tab unless told otherwise', () => {
    expect(accountTabOf('connexion')).toBe('connexion');
    expect(accountTabOf('autre')).toBe('invite');
    expect(accountTabOf(null)).toBe('invite');
  });
});
