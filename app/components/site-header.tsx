import { ShieldCheckIcon, UserRoundIcon } from 'lucide-react';
import { Link } from 'react-router';
import type { AccountRole } from '~/domain/account/redirects';
import { accountEntry, adminEntry, estimateEntry, loginEntry } from '~/domain/site-navigation';
import { can } from '~/domain/staff/permissions';
import { DesktopNavigation, MobileMenu } from './site/header-menus';
import { SITE_HEADER_ATTRIBUTE } from './site/page-enhancements';
import { useHeaderMenus } from './site/use-header-menus';
import { Button } from './ui/button';
import { cn } from './ui/cn';

export interface SiteHeaderProps {
  user: { role: AccountRole } | null;
}

export function SiteHeader({ user }: SiteHeaderProps) {
  const isAdmin = can(user?.role, 'dashboard');
  const accountLink = user ? accountEntry : loginEntry;
  const headerRef = useHeaderMenus();

  return (
    <header
      ref={headerRef}
      {...{ [SITE_HEADER_ATTRIBUTE]: '' }}
      // `data-scrolled` is set by page-enhancements.ts's enhanceHeader (React never renders it).
      // Only colours change with the scroll position: the height and the border width stay, so nothing moves.
      className="fixed inset-x-0 top-0 z-40 h-header border-transparent border-b bg-transparent transition-[background-color,border-color,box-shadow] duration-200 data-[scrolled=true]:border-border data-[scrolled=true]:bg-background data-[scrolled=true]:shadow-sm"
    >
      <div className="mx-auto flex h-full max-w-7xl items-center gap-2 px-4 sm:px-6 md:px-4 lg:gap-4 lg:px-8">
        <Logo />

        <DesktopNavigation />

        <div className="ml-auto flex items-center gap-1 lg:gap-2">
          {isAdmin ? (
            <Button asChild variant="ghost" className="hidden px-2 md:inline-flex lg:px-3">
              <Link to={adminEntry.path}>
                <ShieldCheckIcon aria-hidden="true" />
                <span className="sr-only xl:not-sr-only">{adminEntry.title}</span>
              </Link>
            </Button>
          ) : null}
          <Button asChild variant="ghost" className="hidden px-2 md:inline-flex lg:px-3">
            <Link to={accountLink.path}>
              <UserRoundIcon aria-hidden="true" />
              <span className="sr-only lg:not-sr-only">{accountLink.title}</span>
            </Link>
          </Button>
          <Button asChild variant="accent" className="hidden px-3 sm:inline-flex lg:px-4">
            <Link to={estimateEntry.path}>{estimateEntry.title}</Link>
          </Button>
          <MobileMenu isAdmin={isAdmin} accountLink={accountLink} />
        </div>
      </div>
    </header>
  );
}

export function Logo({ className }: { className?: string }) {
  return (
    <Link
      to="/"
      aria-label="Soovenirs, accueil"
      className={cn('mr-2 flex shrink-0 items-center gap-2 rounded-md text-primary', className)}
    >
      <LogoMark className="size-8" />
      <span className="font-heading font-semibold text-[1.375rem] leading-none tracking-tight">Soovenirs</span>
    </Link>
  );
}

/** A photo print with a folded corner: the shop's mark. */
export function LogoMark({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 32 32" className={className} aria-hidden="true" focusable="false">
      <rect x="2" y="2" width="28" height="28" rx="7" className="fill-primary" />
      <rect x="7" y="7" width="18" height="18" rx="1.5" className="fill-background" />
      <path d="M7 21l5-6 4 4 3-2.5 6 4.5V25H7z" className="fill-accent" />
      <circle cx="20" cy="12" r="2.2" className="fill-accent" />
    </svg>
  );
}
