import { renderToString } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { SiteHeader, type SiteHeaderProps } from './site-header';

function render(user: SiteHeaderProps['user']): string {
  return renderToString(
    <MemoryRouter initialEntries={['/']}>
      <SiteHeader user={user} />
    </MemoryRouter>,
  );
}

describe('the site header', () => {
  it.each([
    { who: 'a visitor', user: null, account: ['/login', 'Se connecter'], admin: false },
    { who: 'a customer', user: { role: 'customer' as const }, account: ['/profile', 'Mon Compte'], admin: false },
    { who: 'an administrator', user: { role: 'admin' as const }, account: ['/profile', 'Mon Compte'], admin: true },
  ])('shows $who the right account link, and Administration only to administrators', ({ user, account, admin }) => {
    const html = render(user);
    const [path, label] = account as [string, string];
    expect(html).toContain(`href="${path}"`);
    expect(html).toContain(label);
    expect(html.includes('href="/admin"')).toBe(admin);
    expect(html.includes('Administration')).toBe(admin);
    expect(html).toContain('href="/configurateur"');
    expect(html).toContain('Estimer ma commande');
  });

  it('renders transparent, as at the top of the page, on the server: the background comes with data-scrolled', () => {
    const header = /<header[^>]*>/.exec(render(null))?.[0] ?? '';
    expect(header).not.toContain('data-scrolled');
    expect(header).toContain('bg-transparent');
    expect(header).toContain('data-[scrolled=true]:bg-background');
  });
});
