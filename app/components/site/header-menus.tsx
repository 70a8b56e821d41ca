import { ChevronDownIcon, MenuIcon } from 'lucide-react';
import { Link, useLocation } from 'react-router';
import {
  adminEntry,
  allServicesEntry,
  estimateEntry,
  homeEntry,
  type MenuEntry,
  type MenuGroup,
  quotesEntry,
  siteNavigation,
} from '~/domain/site-navigation';
import { buttonVariants } from '../ui/button';
import { cn } from '../ui/cn';
import { MENU_ATTRIBUTE } from './page-enhancements';

/*
 * The header's menus are native disclosures, <details>/<summary>: they open from a click, a tap,
 * Enter or Space without any JavaScript, screen readers announce them as expandable buttons, and
 * React hydrates them as they are (app/components/site/use-header-menus.ts adds Escape and the
 * closing). Sharing one `name`, opening a menu closes the other ones.
 */
const MENU_NAME = 'menu-principal';
const menuProps = { name: MENU_NAME, [MENU_ATTRIBUTE]: '' };

/** The summary's own disclosure triangle goes: the chevron says it instead. */
const summaryReset = 'cursor-pointer list-none [&::-webkit-details-marker]:hidden';

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

function currentPage(current: boolean): 'page' | undefined {
  return current ? 'page' : undefined;
}

const panelLinkClass =
  'rounded-md text-sm transition-colors hover:bg-muted focus-visible:bg-muted aria-[current=page]:font-semibold aria-[current=page]:text-primary';

export function DesktopNavigation() {
  const isCurrent = useIsCurrent();
  return (
    <nav aria-label="Navigation principale" className="hidden md:block">
      <ul className="flex list-none items-center gap-1">
        {siteNavigation.map((group) => (
          <li key={group.id}>
            <details {...menuProps} className="group relative">
              <summary
                className={cn(
                  summaryReset,
                  'inline-flex h-10 items-center justify-center gap-1 rounded-md px-2 font-medium text-foreground text-sm transition-colors hover:bg-muted focus-visible:outline-2 focus-visible:outline-ring focus-visible:outline-offset-2 group-open:bg-muted lg:px-3',
                )}
              >
                {group.title}
                {/* Between 768 and 1024 px the chevrons give way, so that the bar fits. */}
                <ChevronDownIcon
                  className="size-4 transition-transform duration-200 group-open:rotate-180 max-lg:hidden"
                  aria-hidden="true"
                />
              </summary>
              <div
                // Panels hang from the header's lower edge; the wide service grid is centred in the window.
                className={cn(
                  'z-50 overflow-hidden rounded-lg border border-border bg-popover text-popover-foreground shadow-xl',
                  group.id === 'prestations'
                    ? 'fixed inset-x-0 top-[calc(var(--spacing-header)+0.25rem)] mx-auto w-[min(46rem,calc(100vw-2rem))]'
                    : 'absolute top-[calc(100%+0.75rem)] left-0',
                )}
              >
                {group.id === 'prestations' ? (
                  <ServiceGrid group={group} isCurrent={isCurrent} />
                ) : (
                  <ul className="grid w-64 gap-1 p-2">
                    {group.entries.map((entry) => (
                      <li key={entry.path}>
                        <Link
                          to={entry.path}
                          aria-current={currentPage(isCurrent(entry))}
                          className={cn(panelLinkClass, 'block px-3 py-2')}
                        >
                          {entry.title}
                        </Link>
                      </li>
                    ))}
                  </ul>
                )}
              </div>
            </details>
          </li>
        ))}
      </ul>
    </nav>
  );
}

function ServiceGrid({ group, isCurrent }: { group: MenuGroup; isCurrent: (entry: MenuEntry) => boolean }) {
  return (
    <div className="p-3">
      <ul className="grid grid-cols-2 gap-1 lg:grid-cols-3">
        {group.entries.map((entry) => (
          <li key={entry.path}>
            <Link
              to={entry.path}
              aria-current={currentPage(isCurrent(entry))}
              className={cn(panelLinkClass, 'flex items-center gap-3 p-2')}
            >
              {entry.image ? (
                <img src={entry.image} alt="" width={40} height={40} loading="lazy" className="size-10 shrink-0" />
              ) : null}
              <span>{entry.title}</span>
            </Link>
          </li>
        ))}
      </ul>
      <div className="mt-2 border-border border-t px-2 pt-3 pb-1">
        <Link
          to={allServicesEntry.path}
          className="font-medium text-primary text-sm underline-offset-4 hover:underline"
        >
          {allServicesEntry.title}
        </Link>
      </div>
    </div>
  );
}

interface MobileMenuProps {
  isAdmin: boolean;
  accountLink: MenuEntry;
}

/** The menu of a phone: the same links as the desktop's menus and a few more, under the header. */
export function MobileMenu(props: MobileMenuProps) {
  return (
    <details {...menuProps} className="md:hidden">
      <summary className={cn(buttonVariants({ variant: 'ghost' }), summaryReset, 'px-2')}>
        <MenuIcon className="size-6!" aria-hidden="true" />
        Menu
      </summary>
      <div className="fixed inset-x-0 top-header bottom-0 overflow-y-auto border-border border-t bg-background shadow-lg">
        <MobileNavigation {...props} />
      </div>
    </details>
  );
}

function MobileNavigation({ isAdmin, accountLink }: MobileMenuProps) {
  const isCurrent = useIsCurrent();
  const linkClass =
    'flex min-h-11 items-center rounded-md px-3 py-2 font-semibold transition-colors hover:bg-muted aria-[current=page]:text-primary aria-[current=page]:underline aria-[current=page]:underline-offset-4';

  return (
    <nav aria-label="Menu mobile" className="flex flex-col gap-1 p-3">
      <Link to={estimateEntry.path} className={cn(buttonVariants({ variant: 'accent', size: 'lg' }), 'mb-2')}>
        {estimateEntry.title}
      </Link>
      <Link to={homeEntry.path} aria-current={currentPage(isCurrent(homeEntry))} className={linkClass}>
        {homeEntry.title}
      </Link>
      {siteNavigation.map((group) => (
        <details key={group.id} className="group rounded-md">
          <summary
            className={cn(
              summaryReset,
              'flex min-h-11 items-center justify-between rounded-md px-3 py-2 font-semibold transition-colors hover:bg-muted',
            )}
          >
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
                  aria-current={currentPage(isCurrent(entry))}
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
      <Link to={quotesEntry.path} aria-current={currentPage(isCurrent(quotesEntry))} className={linkClass}>
        {quotesEntry.title}
      </Link>
      <Link to={accountLink.path} aria-current={currentPage(isCurrent(accountLink))} className={linkClass}>
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
