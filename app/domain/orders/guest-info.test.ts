import { describe, expect, it } from 'vitest';
import { FORBIDDEN_CHARACTER_MESSAGE } from '~/domain/text-input';
import { parseGuestInfo } from './guest-info';

describe('parseGuestInfo', () => {
  // Found by the bad-input property test (seed 1364625702): a NUL in a free-text field reached
  // PostgreSQL, whose text type refuses it, and the guest form answered 500.
  it.each(['firstName', 'lastName', 'address', 'city'] as const)('refuses a NUL character in %s in French', (field) => {
    const result = parseGuestInfo({ email: 'client@example.fr', [field]: 'Du\u0000pont' });
    expect(result).toEqual({ success: false, fieldErrors: { [field]: FORBIDDEN_CHARACTER_MESSAGE } });
  });

  it('accepts ordinary French details', () => {
    const result = parseGuestInfo({ email: 'Client@Example.fr', firstName: 'Éloïse', city: 'Saint-Étienne' });
    expect(result).toMatchObject({ success: true, data: { email: 'client@example.fr', firstName: 'Éloïse' } });
  });
});
