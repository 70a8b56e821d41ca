import { describe, expect, it } from 'vitest';
import { parseShareForm, shareExpiry, sharerDisplayName, shareState, shareTitle, shareZipName } from './sharing';

describe('whose memories a share names', () => {
  it('says « Marie D. », with « d’ » before a vowel, and nothing more of the customer', () => {
    expect(sharerDisplayName('Marie', 'Dupont')).toBe('Marie D.');
    expect(sharerDisplayName(' Jean  Paul ', 'émile')).toBe('Jean Paul É.');
    expect(sharerDisplayName('', '')).toBe('un proche');
    expect(shareTitle('Marie D.')).toBe('Les souvenirs de Marie D.');
    expect(shareTitle('Anne D.')).toBe('Les souvenirs d’Anne D.');
    expect(shareZipName('Marie D.')).toBe('Souvenirs de Marie D.zip');
  });
});

describe('a share’s end', () => {
  const now = new Date('2026-11-27T10:00:00Z');
  const published = { filesPublishedAt: now, filesDeletedAt: null };
  it('is its duration, never after the files’ retention', () => {
    expect(shareExpiry(now, 30, null).toISOString()).toBe('2026-12-27T10:00:00.000Z');
    const retention = new Date('2026-12-01T00:00:00Z');
    expect(shareExpiry(now, 30, retention)).toBe(retention);
  });
  it('comes with the expiry, the revocation or the files’ deletion', () => {
    const later = new Date('2026-12-01T00:00:00Z');
    expect(shareState({ expiresAt: later, revokedAt: null }, published, now)).toBe('active');
    expect(shareState({ expiresAt: now, revokedAt: null }, published, now)).toBe('expired');
    expect(shareState({ expiresAt: later, revokedAt: now }, published, now)).toBe('revoked');
    expect(shareState({ expiresAt: later, revokedAt: null }, { ...published, filesDeletedAt: now }, now)).toBe(
      'expired',
    );
  });
});

describe('the share form', () => {
  it('checks the selection, the duration, the addresses, in French', () => {
    expect(parseShareForm({ scope: 'selection', fileIds: [] })).toEqual({
      ok: false,
      error: 'Cochez au moins un fichier à partager, ou choisissez « Tous mes fichiers ».',
    });
    expect(parseShareForm({ days: '0' })).toMatchObject({ ok: false, error: expect.stringContaining('durée') });
    expect(parseShareForm({ days: '366' })).toMatchObject({ ok: false });
    expect(parseShareForm({ emails: 'tante@example.fr, pas-une-adresse' })).toEqual({
      ok: false,
      error: '« pas-une-adresse » n’est pas une adresse e-mail valide.',
    });
    const good = parseShareForm({
      scope: 'all',
      fileIds: ['ignored'],
      access: 'download',
      emails: 'Tante@example.fr\ntante@example.fr; cousin@example.fr',
      message: '  Bises\r\n',
    });
    expect(good).toEqual({
      ok: true,
      value: {
        scope: 'all',
        fileIds: [],
        allowDownloads: true,
        days: 30,
        emails: ['Tante@example.fr', 'cousin@example.fr'],
        label: null,
        message: 'Bises',
      },
    });
  });
});
