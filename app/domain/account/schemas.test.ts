import { describe, expect, it } from 'vitest';
import { newPasswordSchema, profileSchema, registerSchema, setupAdminSchema, signInSchema } from './schemas';

function issues(result: { success: boolean; error?: { issues: Array<{ path: PropertyKey[]; message: string }> } }) {
  return (result.error?.issues ?? []).map((issue) => [issue.path.join('.'), issue.message]);
}

describe('signInSchema', () => {
  it.each([
    [{}, 'both missing'],
    [{ email: 'a@b.fr' }, 'no password'],
    [{ password: 'secret' }, 'no email'],
  ])('asks to fill every field (%j, %s)', (input, _case) => {
    expect(issues(signInSchema.safeParse(input))).toEqual([['', 'Veuillez remplir tous les champs']]);
  });

  it('leaves other checks to the auth provider', () => {
    expect(signInSchema.safeParse({ email: 'pas-un-email', password: 'x' }).success).toBe(true);
  });
});

describe('newPasswordSchema', () => {
  it.each<[Record<string, string>, [string, string][]]>([
    [
      { password: 'Tournesol-9', confirmPassword: 'Tournesol-8' },
      [['confirmPassword', 'Les mots de passe ne correspondent pas']],
    ],
    [
      { password: 'abc', confirmPassword: 'abc' },
      [['password', 'Le mot de passe doit contenir au moins 6 caractères']],
    ],
    [
      { password: 'azerty123', confirmPassword: 'azerty123' },
      [['password', 'Ce mot de passe fait partie des plus courants : choisissez-en un autre.']],
    ],
    [{ password: 'Tournesol-9', confirmPassword: 'Tournesol-9' }, []],
  ])('%j', (input, expected) => {
    expect(issues(newPasswordSchema.safeParse(input))).toEqual(expected);
  });
});

describe('registerSchema', () => {
  const valid = {
    email: ' Jeanne@Example.FR ',
    password: 'Tournesol-Bleu-42',
    confirmPassword: 'Tournesol-Bleu-42',
    acceptTerms: 'on',
  };

  it('accepts names as optional and lower-cases the address', () => {
    const result = registerSchema.safeParse(valid);
    expect(result.success && result.data.email).toBe('jeanne@example.fr');
  });

  it('requires the terms', () => {
    expect(issues(registerSchema.safeParse({ ...valid, acceptTerms: undefined }))).toEqual([
      ['acceptTerms', 'Vous devez accepter les conditions générales'],
    ]);
  });

  it('requires the e-mail address', () => {
    expect(issues(registerSchema.safeParse({ ...valid, email: undefined }))).toEqual([
      ['email', 'Veuillez saisir votre email'],
    ]);
  });

  it('reports a mismatch even while other fields are wrong', () => {
    expect(
      issues(registerSchema.safeParse({ ...valid, acceptTerms: undefined, confirmPassword: 'autre-chose' })),
    ).toEqual([
      ['acceptTerms', 'Vous devez accepter les conditions générales'],
      ['confirmPassword', 'Les mots de passe ne correspondent pas'],
    ]);
  });

  it('wants the same password twice', () => {
    expect(issues(registerSchema.safeParse({ ...valid, confirmPassword: 'autre-chose' }))).toEqual([
      ['confirmPassword', 'Les mots de passe ne correspondent pas'],
    ]);
  });
});

describe('profileSchema', () => {
  it.each<[Record<string, string>, [string, string][]]>([
    [{ postalCode: '75004', phone: '+33 6 12 34 56 78' }, []],
    [{ postalCode: '7500' }, [['postalCode', 'Le code postal doit contenir 5 chiffres']]],
    [{ phone: 'appelez-moi' }, [['phone', 'Numéro de téléphone invalide']]],
    [{ city: 'x'.repeat(101) }, [['city', 'Ce champ ne doit pas dépasser 100 caractères']]],
    [{}, []],
  ])('%j', (input, expected) => {
    expect(issues(profileSchema.safeParse(input))).toEqual(expected);
  });
});

describe('setupAdminSchema', () => {
  it('wants a long, uncommon password for the administrator', () => {
    const base = { email: 'admin@soovenirs.fr', setupCode: 'ABCD-EFGH-JKMN' };
    expect(issues(setupAdminSchema.safeParse({ ...base, password: 'Court-1', confirmPassword: 'Court-1' }))).toEqual([
      ['password', 'Le mot de passe administrateur doit contenir au moins 12 caractères'],
    ]);
    expect(
      issues(setupAdminSchema.safeParse({ ...base, password: 'motdepasse123', confirmPassword: 'motdepasse123' })),
    ).toEqual([['password', 'Ce mot de passe fait partie des plus courants : choisissez-en un autre.']]);
    expect(
      setupAdminSchema.safeParse({ ...base, password: 'Phare-Breton-2026', confirmPassword: 'Phare-Breton-2026' })
        .success,
    ).toBe(true);
  });

  it('asks for the setup code the server printed', () => {
    const form = { email: 'admin@soovenirs.fr', password: 'Phare-Breton-2026', confirmPassword: 'Phare-Breton-2026' };
    expect(issues(setupAdminSchema.safeParse(form))).toEqual([['setupCode', 'Veuillez saisir le code d’installation']]);
  });
});
