import { describe, expect, it } from 'vitest';
import { resolveServiceImage, SERVICE_IMAGE_PLACEHOLDER } from './service-images';

const remote = (slug: string, imageUrl: string, isDefault = false) => ({
  serviceSlug: slug,
  serviceTitle: slug,
  imageUrl,
  serviceId: slug,
  isDefault,
});

describe('resolveServiceImage', () => {
  it('prefers the local map, then the default remote image, then any remote image, then a placeholder', () => {
    const local = { vhs: '/images/services/vhs.svg' };
    const images = [
      remote('vhs', 'https://cms.example/vhs.png', true),
      remote('film', '/f1.png'),
      remote('film', '/f2.png', true),
    ];
    expect(resolveServiceImage('vhs', local, images)).toBe('/images/services/vhs.svg');
    expect(resolveServiceImage('film', local, images)).toBe('/f2.png');
    expect(resolveServiceImage('film', local, [remote('film', '/f1.png')])).toBe('/f1.png');
    expect(resolveServiceImage('autre', local, images)).toBe(SERVICE_IMAGE_PLACEHOLDER);
    expect(resolveServiceImage('film', {}, [remote('film', 'javascript:alert(1)', true)])).toBe(
      SERVICE_IMAGE_PLACEHOLDER,
    );
  });
});
