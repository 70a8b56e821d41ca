import { describe, expect, it } from 'vitest';
import { commonPasswordCount, isCommonPassword } from './common-passwords';

describe('isCommonPassword', () => {
  it('holds a few hundred passwords', () => {
    expect(commonPasswordCount()).toBeGreaterThanOrEqual(300);
  });

  it.each([
    ['123456', 'the most common of all'],
    ['password', 'English classic'],
    ['azerty', 'French keyboard'],
    ['AZERTY', 'case does not matter'],
    ['azerty123', 'French keyboard with digits'],
    ['motdepasse', '"password" in French'],
    ['MotDePasse', 'mixed case'],
    ['soleil', 'French favourite'],
    ['Soleil2024!', 'common word, a year and a symbol'],
    ['nicolas1987', 'first name and birth year'],
    ['Sébastien', 'accents do not matter'],
    ['marseille13', 'football club'],
    ['jetaime', 'French favourite'],
    ['qsdfghjklm', 'keyboard row'],
    ['aaaaaaaa', 'one repeated character'],
    ['!!!!!!', 'one repeated symbol'],
    ['234567', 'run of digits'],
    ['876543', 'descending run of digits'],
    ['soovenirs', 'the name of the shop'],
  ])('refuses %j (%s)', (password) => {
    expect(isCommonPassword(password)).toBe(true);
  });

  it.each([
    ['Kx9#pq', 'six random characters'],
    ['correct horse battery staple', 'a passphrase'],
    ['Tournesol-Bleu-42', 'uncommon words'],
    ['soleil du soir à Nantes', 'common word inside a sentence'],
    ['193847', 'digits that are not a run'],
    ['soleil-couchant-sur-la-loire', 'common word followed by other words'],
    ['zq8!LmP2', 'random'],
  ])('accepts %j (%s)', (password) => {
    expect(isCommonPassword(password)).toBe(false);
  });
});
