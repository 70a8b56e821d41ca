import { describe, expect, it } from 'vitest';
import {
  type AdminFile,
  deliveryLabel,
  downloadsLabel,
  groupAdminFiles,
  previewLabel,
  reworkFiles,
  reworkHeading,
} from './admin-files';

const file = (overrides: Partial<AdminFile>): AdminFile => ({
  id: 'f',
  name: 'IMG_0001.jpg',
  support: 'photos',
  kind: 'image',
  sizeBytes: 1000,
  previewStatus: 'ready',
  downloadCount: 0,
  lastDownloadedAt: null,
  reworkRequestedAt: null,
  reworkComment: null,
  createdAt: '2026-11-21T09:00:00Z',
  ...overrides,
});

describe('the back office’s view of an order’s files', () => {
  it('groups by support with counts and sizes, names in natural order', () => {
    const groups = groupAdminFiles([
      file({ id: 'a', name: 'IMG_10.jpg', sizeBytes: 1_500_000 }),
      file({ id: 'b', name: 'IMG_9.jpg', sizeBytes: 500_000 }),
      file({ id: 'c', name: 'cassette.mp4', support: 'vhs', kind: 'video', sizeBytes: 2_000_000_000 }),
    ]);
    const bySupport = Object.fromEntries(groups.map((g) => [g.support, g]));
    expect(bySupport.vhs?.summary).toBe('1\u00a0fichier · 2\u00a0Go');
    expect(bySupport.photos?.summary).toBe('2\u00a0fichiers · 2\u00a0Mo');
    expect(bySupport.photos?.files.map((f) => f.name)).toEqual(['IMG_9.jpg', 'IMG_10.jpg']);
    expect(bySupport.photos?.label).toBe('Photos papier');
  });

  it('the files to redo, the oldest request first, and their heading', () => {
    const files = [
      file({ id: 'a', reworkRequestedAt: '2026-11-22T10:00:00Z' }),
      file({ id: 'b' }),
      file({ id: 'c', reworkRequestedAt: '2026-11-21T10:00:00Z' }),
    ];
    expect(reworkFiles(files).map((f) => f.id)).toEqual(['c', 'a']);
    expect(reworkHeading(2)).toBe('2 fichiers à refaire');
    expect(reworkHeading(1)).toBe('1 fichier à refaire');
  });

  it('downloads, previews and the delivery in French', () => {
    expect(downloadsLabel(0, null)).toBe('Jamais téléchargé');
    expect(downloadsLabel(3, '2026-11-21T09:00:00Z')).toBe('Téléchargé 3 fois, dernier le 21/11/2026 à 10:00');
    expect(previewLabel('pending', 'image')).toBe('Aperçu en cours');
    expect(previewLabel('failed', 'video')).toBe('Aperçu indisponible');
    expect(previewLabel('none', 'other')).toBeNull();
    expect(previewLabel('ready', 'image')).toBeNull();
    const base = { publishedAt: null, expiresAt: null, deletedAt: null, reminderSentAt: null };
    expect(deliveryLabel(base)).toBe('Livraison pas encore publiée');
    expect(deliveryLabel({ ...base, publishedAt: '2026-11-21T09:00:00Z', expiresAt: '2027-01-20T09:00:00Z' })).toBe(
      'Publiée le 21/11/2026 à 10:00, en ligne jusqu’au 20/01/2027',
    );
    expect(deliveryLabel({ ...base, publishedAt: '2026-11-21T09:00:00Z', deletedAt: '2027-01-20T09:00:00Z' })).toBe(
      'Fichiers supprimés le 20/01/2027 (fin de la conservation)',
    );
  });
});
