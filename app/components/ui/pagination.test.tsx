import { renderToString } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { Pagination } from './pagination';

/** The attributes of the link whose accessible label is `label`. */
function linkLabelled(out: string, label: string): string {
  return out.match(new RegExp(`<a [^>]*aria-label="${label}"[^>]*>`))?.[0] ?? '';
}

function html(element: React.ReactElement): string {
  return renderToString(<MemoryRouter>{element}</MemoryRouter>).replace(/<!-- -->/g, '');
}

describe('Pagination', () => {
  it('links the neighbouring pages and marks the current one', () => {
    const out = html(<Pagination page={2} pageCount={7} hrefFor={(p) => `?page=${p}`} label="Pages des commandes" />);
    expect(out).toContain('aria-label="Pages des commandes"');
    expect(out).toContain('Page 2 sur 7');
    expect(linkLabelled(out, 'Page précédente')).toContain('href="/?page=1"');
    expect(linkLabelled(out, 'Page suivante')).toContain('href="/?page=3"');
    expect(linkLabelled(out, 'Page 2')).toContain('aria-current="page"');
    expect(linkLabelled(out, 'Page 3')).not.toContain('aria-current');
    expect(out).toContain('…');
  });

  it('offers no previous link on the first page and no next link on the last', () => {
    expect(html(<Pagination page={1} pageCount={3} hrefFor={(p) => `?page=${p}`} label="Pages" />)).not.toContain(
      'Page précédente',
    );
    expect(html(<Pagination page={3} pageCount={3} hrefFor={(p) => `?page=${p}`} label="Pages" />)).not.toContain(
      'Page suivante',
    );
  });

  it('shows nothing when the list holds on one page', () => {
    expect(html(<Pagination page={1} pageCount={1} hrefFor={(p) => `?page=${p}`} label="Pages" />)).toBe('');
  });
});
