import { ChevronDownIcon, MenuIcon, ShieldCheckIcon, UserRoundIcon } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link, useLocation } from 'react-router';
import type { AccountRole } from '~/domain/account/redirects';
import {
  accountEntry,
  adminEntry,
  allServicesEntry,
  estimateEntry,
  homeEntry,
  loginEntry,
  type MenuEntry,
  type MenuGroup,
  quotesEntry,
  siteNavigation,
} from '~/domain/site-navigation';
import { Button, buttonVariants } from './ui/button';
import { cn } from './ui/cn';
import {
  NavigationMenu,
  NavigationMenuContent,
  NavigationMenuItem,
  NavigationMenuLink,
  NavigationMenuList,
  NavigationMenuTrigger,
} from './ui/navigation-menu';
import { Sheet, SheetContent, SheetHeader, SheetTitle, SheetTrigger } from './ui/sheet';
import { useHydrated } from './use-hydrated';

/** Past this many pixels of scroll the header gets its opaque background. */
const SCROLL_THRESHOLD = 20;

export interface SiteHeaderProps {
  user: { role: AccountRole } | null;
}

export function SiteHeader({ user }: SiteHeaderProps) {
  const scrolled = useScrolledPast(SCROLL_THRESHOLD);
  const isAdmin = user?.role === 'admin';
  const accountLink = user ? accountEntry : loginEntry;

  return (
    <header
      data-scrolled={scrolled ? 'true' : 'false'}
      // Only colours change with the scroll position: the height and the border width stay, so nothing moves.
      className={cn(
        'fixed inset-x-0 top-0 z-40 h-header border-b transition-[background-color,border-color,box-shadow] duration-200',
        scrolled ? 'border-border bg-background shadow-sm' : 'border-transparent bg-transparent',
      )}
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

function useScrolledPast(threshold: number): boolean {
  const [scrolled, setScrolled] = useState(false);
  useEffect(() => {
    let frame = 0;
    const update = () => {
      frame = 0;
      setScrolled(window.scrollY > threshold);
    };
    const onScroll = () => {
      if (!frame) frame = window.requestAnimationFrame(update);
    };
    // A reload half-way down the page starts opaque.
    update();
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      window.removeEventListener('scroll', onScroll);
      if (frame) window.cancelAnimationFrame(frame);
    };
  }, [threshold]);
  return scrolled;
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

function useIsCurrent() {
  const { pathname, search } = useLocation();
  return (entry: MenuEntry) => {
    const [path, query] = entry.path.split('?');
    return safeDecode(pathname) === path && (query ? search === `?${query}` : !search.includes('pro=true'));
  };
}

function safeDecode(pathname: string): string {
  try {
    return decodeURI(pathname);
  } catch {
    return pathname;
  }
}

function DesktopNavigation() {
  const isCurrent = useIsCurrent();
  return (
    <NavigationMenu viewport={false} className="hidden md:flex" aria-label="Navigation principale">
      <NavigationMenuList>
        {siteNavigation.map((group) => (
          <NavigationMenuItem key={group.id} value={group.id} className="relative">
            {/* Between 768 and 1024 px the chevrons give way, so that the bar fits. */}
            <NavigationMenuTrigger className="px-2 max-lg:[&>svg]:hidden lg:px-3">{group.title}</NavigationMenuTrigger>
            <NavigationMenuContent
              // Panels hang from the header's lower edge; the wide service grid is centred in the window.
              className={
                group.id === 'prestations'
                  ? 'fixed inset-x-0 top-[calc(var(--spacing-header)+0.25rem)] mx-auto mt-0 w-[min(46rem,calc(100vw-2rem))]'
                  : 'top-[calc(100%+0.75rem)] mt-0'
              }
            >
              {group.id === 'prestations' ? (
                <ServiceGrid group={group} isCurrent={isCurrent} />
              ) : (
                <ul className="grid w-64 gap-1 p-2">
                  {group.entries.map((entry) => (
                    <li key={entry.path}>
                      <NavigationMenuLink asChild active={isCurrent(entry)}>
                        <Link
                          to={entry.path}
                          className="block rounded-md px-3 py-2 text-sm transition-colors hover:bg-muted focus-visible:bg-muted data-[active]:font-semibold data-[active]:text-primary"
                        >
                          {entry.title}
                        </Link>
                      </NavigationMenuLink>
                    </li>
                  ))}
                </ul>
              )}
            </NavigationMenuContent>
          </NavigationMenuItem>
        ))}
      </NavigationMenuList>
    </NavigationMenu>
  );
}

function ServiceGrid({ group, isCurrent }: { group: MenuGroup; isCurrent: (entry: MenuEntry) => boolean }) {
  return (
    <div className="p-3">
      <ul className="grid grid-cols-2 gap-1 lg:grid-cols-3">
        {group.entries.map((entry) => (
          <li key={entry.path}>
            <NavigationMenuLink asChild active={isCurrent(entry)}>
              <Link
                to={entry.path}
                className="flex items-center gap-3 rounded-md p-2 text-sm transition-colors hover:bg-muted focus-visible:bg-muted data-[active]:font-semibold data-[active]:text-primary"
              >
                {entry.image ? (
                  <img src={entry.image} alt="" width={40} height={40} className="size-10 shrink-0" />
                ) : null}
                <span>{entry.title}</span>
              </Link>
            </NavigationMenuLink>
          </li>
        ))}
      </ul>
      <div className="mt-2 border-border border-t px-2 pt-3 pb-1">
        <NavigationMenuLink asChild>
          <Link
            to={allServicesEntry.path}
            className="font-medium text-primary text-sm underline-offset-4 hover:underline"
          >
            {allServicesEntry.title}
          </Link>
        </NavigationMenuLink>
      </div>
    </div>
  );
}

interface MobileMenuProps {
  isAdmin: boolean;
  accountLink: MenuEntry;
}

/**
 * The menu of a phone. Until React runs (and without JavaScript at all) it is a native disclosure,
 * <details>/<summary>, opening the same links under the header: keyboard and screen readers know
 * it as an expandable button. Once React runs it becomes the drawer.
 */
function MobileMenu(props: MobileMenuProps) {
  const hydrated = useHydrated();
  return hydrated ? <MobileDrawer {...props} /> : <MobileDisclosure {...props} />;
}

const menuButtonClass = cn(buttonVariants({ variant: 'ghost' }), 'px-2 md:hidden');

function MobileDisclosure(props: MobileMenuProps) {
  return (
    <details className="md:hidden">
      <summary className={cn(menuButtonClass, 'cursor-pointer list-none [&::-webkit-details-marker]:hidden')}>
        <MenuIcon className="size-6!" aria-hidden="true" />
        Menu
      </summary>
      <div className="fixed inset-x-0 top-header bottom-0 overflow-y-auto border-border border-t bg-background shadow-lg">
        <MobileNavigation {...props} />
      </div>
    </details>
  );
}

function MobileDrawer(props: MobileMenuProps) {
  const [open, setOpen] = useState(false);
  const location = useLocation();

  // Following a link in the drawer closes it (state adjusted during render, as React recommends).
  const [seenKey, setSeenKey] = useState(location.key);
  if (seenKey !== location.key) {
    setSeenKey(location.key);
    setOpen(false);
  }

  return (
    <Sheet open={open} onOpenChange={setOpen}>
      <SheetTrigger asChild>
        <Button variant="ghost" className="px-2 md:hidden">
          <MenuIcon className="size-6!" aria-hidden="true" />
          Menu
        </Button>
      </SheetTrigger>
      <SheetContent side="right" aria-describedby={undefined} className="gap-0">
        <SheetHeader className="border-border border-b">
          <SheetTitle>Menu</SheetTitle>
        </SheetHeader>
        <MobileNavigation {...props} />
      </SheetContent>
    </Sheet>
  );
}

function MobileNavigation({ isAdmin, accountLink }: MobileMenuProps) {
  const isCurrent = useIsCurrent();
  const linkClass =
    'flex min-h-11 items-center rounded-md px-3 py-2 font-semibold transition-colors hover:bg-muted aria-[current=page]:text-primary aria-[current=page]:underline aria-[current=page]:underline-offset-4';

  return (
    <nav aria-label="Menu mobile" className="flex flex-col gap-1 p-3">
      <Button asChild variant="accent" size="lg" className="mb-2">
        <Link to={estimateEntry.path}>{estimateEntry.title}</Link>
      </Button>
      <Link to={homeEntry.path} aria-current={isCurrent(homeEntry) ? 'page' : undefined} className={linkClass}>
        {homeEntry.title}
      </Link>
      {siteNavigation.map((group) => (
        <details key={group.id} className="group rounded-md">
          <summary className="flex min-h-11 list-none items-center justify-between rounded-md px-3 py-2 font-semibold transition-colors hover:bg-muted [&::-webkit-details-marker]:hidden">
            {group.title}
            <ChevronDownIcon
              className="size-5 text-muted-foreground transition-transform group-open:rotate-180"
              aria-hidden="true"
            />
          </summary>
          <ul className="pb-2 pl-2">
            {group.entries.map((entry) => (
              <li key={entry.path}>
                <Link
                  to={entry.path}
                  aria-current={isCurrent(entry) ? 'page' : undefined}
                  className={cn(linkClass, 'gap-3 font-normal text-sm')}
                >
                  {entry.image ? (
                    <img src={entry.image} alt="" width={32} height={32} loading="lazy" className="size-8" />
                  ) : null}
                  {entry.title}
                </Link>
              </li>
            ))}
            {group.id === 'prestations' ? (
              <li>
                <Link to={allServicesEntry.path} className={cn(linkClass, 'font-medium text-primary text-sm')}>
                  {allServicesEntry.title}
                </Link>
              </li>
            ) : null}
          </ul>
        </details>
      ))}
      <div className="my-2 border-border border-t" />
      <Link to={quotesEntry.path} aria-current={isCurrent(quotesEntry) ? 'page' : undefined} className={linkClass}>
        {quotesEntry.title}
      </Link>
      <Link to={accountLink.path} aria-current={isCurrent(accountLink) ? 'page' : undefined} className={linkClass}>
        {accountLink.title}
      </Link>
      {isAdmin ? (
        <Link to={adminEntry.path} className={linkClass}>
          {adminEntry.title}
        </Link>
      ) : null}
    </nav>
  );
}
