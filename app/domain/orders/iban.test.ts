import { describe, expect, it } from 'vitest';
import { formatEurosFromCents } from '../format';
import {
  formatIban,
  IBAN_MESSAGES,
  ibanChecksumOk,
  ibanFormSchema,
  ibanProblem,
  ibanRequestSentence,
  maskIban,
} from './iban';

describe('IBAN validation', () => {
  // Published examples of real, valid IBANs (the banks' and the SWIFT registry's own samples).
  it.each([
    'FR76 3000 6000 0112 3456 7890 189',
    'FR1420041010050500013M02606',
    'DE89 3704 0044 0532 0130 00',
    'BE68 5390 0754 7034',
    'NL91ABNA0417164300',
    'CH93 0076 2011 6238 5295 7',
    'GB29 NWBK 6016 1331 9268 19',
    'IT60 X054 2811 1010 0000 0123 456',
    'ES91 2100 0418 4502 0005 1332',
    'MC58 1122 2000 0101 2345 6789 030',
    'fr76-3000-6000-0112-3456-7890-189',
  ])('accepts %s', (iban) => {
    expect(ibanProblem(iban)).toBeNull();
  });

  it('refuses one wrong character and two swapped ones (mod 97)', () => {
    expect(ibanProblem('FR76 3000 6000 0112 3456 7890 188')).toBe(IBAN_MESSAGES.ibanChecksum);
    expect(ibanProblem('FR76 3000 6000 0112 3456 7809 189')).toBe(IBAN_MESSAGES.ibanChecksum);
    expect(ibanProblem('DE89 3704 0044 0532 0130 01')).toBe(IBAN_MESSAGES.ibanChecksum);
    expect(ibanChecksumOk('GB82WEST12345698765432')).toBe(true);
    expect(ibanChecksumOk('GB82WEST12345698765433')).toBe(false);
  });

  it('refuses a length that is not the country’s, naming it', () => {
    expect(ibanProblem('FR76 3000 6000 0112 3456 7890 18')).toBe(IBAN_MESSAGES.ibanLength('FR', 27));
    expect(ibanProblem('BE68 5390 0754 7034 0')).toBe(IBAN_MESSAGES.ibanLength('BE', 16));
  });

  it('refuses a country outside SEPA, and what is not an IBAN', () => {
    // A valid Brazilian IBAN: right checksum, but no SEPA transfer goes there.
    expect(ibanProblem('BR1800360305000010009795493C1')).toBe(IBAN_MESSAGES.ibanCountry);
    expect(ibanProblem('')).toBe(IBAN_MESSAGES.ibanRequired);
    expect(ibanProblem('   ')).toBe(IBAN_MESSAGES.ibanRequired);
    expect(ibanProblem('3000 6000 0112')).toBe(IBAN_MESSAGES.ibanCharacters);
    expect(ibanProblem('FR76 3000 6000 0112 3456 7890 18é')).toBe(IBAN_MESSAGES.ibanCharacters);
  });

  it('formats for reading, masks for those who must not pay into it', () => {
    expect(formatIban('fr7630006000011234567890189')).toBe('FR76 3000 6000 0112 3456 7890 189');
    expect(maskIban('FR76 3000 6000 0112 3456 7890 189')).toBe('FR76 •••• •••• 0189');
    expect(maskIban('FR7630006000011234567890189')).not.toContain('3000');
  });
});

describe('the IBAN form', () => {
  it('keeps the compact IBAN, the trimmed holder and an optional BIC', () => {
    expect(
      ibanFormSchema.parse({ holder: '  Marie Curie ', iban: 'FR76 3000 6000 0112 3456 7890 189', bic: 'bnpa fr pp' }),
    ).toEqual({ holder: 'Marie Curie', iban: 'FR7630006000011234567890189', bic: 'BNPAFRPP' });
    expect(ibanFormSchema.parse({ holder: 'Marie Curie', iban: 'DE89370400440532013000', bic: '' }).bic).toBeNull();
    expect(ibanFormSchema.parse({ holder: 'Marie Curie', iban: 'DE89370400440532013000' }).bic).toBeNull();
  });

  it('answers in French field by field', () => {
    const result = ibanFormSchema.safeParse({ holder: '', iban: 'FR76 3000 6000 0112 3456 7890 188', bic: 'XYZ' });
    expect(result.success).toBe(false);
    const messages = result.error?.issues.map((issue) => [issue.path.join('.'), issue.message]);
    expect(messages).toEqual([
      ['holder', IBAN_MESSAGES.holderRequired],
      ['iban', IBAN_MESSAGES.ibanChecksum],
      ['bic', IBAN_MESSAGES.bicInvalid],
    ]);
  });

  it('says what the customer is asked, with the amount', () => {
    expect(ibanRequestSentence(3500, formatEurosFromCents)).toBe(
      'Indiquez-nous votre IBAN pour recevoir votre remboursement de 35,00\u00a0€',
    );
  });
});
