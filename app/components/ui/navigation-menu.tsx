import * as NavigationMenuPrimitive from '@radix-ui/react-navigation-menu';
import { cva } from 'class-variance-authority';
import { ChevronDownIcon } from 'lucide-react';
import type * as React from 'react';
import { createContext, useContext } from 'react';
import { cn } from './cn';

interface NavigationMenuProps extends React.ComponentProps<typeof NavigationMenuPrimitive.Root> {
  /**
   * true: every panel opens in one shared, animated viewport under the list. false: each panel
   * opens under its own item (give the item `relative`, or position the panel yourself).
   */
  viewport?: boolean;
}

/**
 * Drop-down site navigation. Radix opens a menu after `delayDuration` (200 ms) of hover, opens the
 * next one at once within `skipDelayDuration` (300 ms), and closes after a fixed 150 ms once the
 * pointer leaves, so that a diagonal move towards the panel does not close it.
 */
const ViewportContext = createContext(true);

export function NavigationMenu({
  className,
  children,
  delayDuration = 200,
  skipDelayDuration = 300,
  viewport = true,
  ...props
}: NavigationMenuProps) {
  return (
    <NavigationMenuPrimitive.Root
      data-slot="navigation-menu"
      data-viewport={viewport}
      delayDuration={delayDuration}
      skipDelayDuration={skipDelayDuration}
      className={cn('group/navigation-menu relative z-10 flex items-center', className)}
      {...props}
    >
      <ViewportContext.Provider value={viewport}>{children}</ViewportContext.Provider>
      {viewport ? (
        <div className="absolute inset-x-0 top-full flex justify-center">
          <NavigationMenuPrimitive.Viewport
            data-slot="navigation-menu-viewport"
            className="relative mt-1 h-(--radix-navigation-menu-viewport-height) w-full origin-top overflow-hidden rounded-lg border border-border bg-popover text-popover-foreground shadow-xl transition-[width,height] duration-200 data-[state=closed]:animate-fade-out data-[state=open]:animate-zoom-in md:w-(--radix-navigation-menu-viewport-width)"
          />
        </div>
      ) : null}
    </NavigationMenuPrimitive.Root>
  );
}

export function NavigationMenuList({ className, ...props }: React.ComponentProps<typeof NavigationMenuPrimitive.List>) {
  return (
    <NavigationMenuPrimitive.List
      data-slot="navigation-menu-list"
      className={cn('flex list-none items-center gap-1', className)}
      {...props}
    />
  );
}

export const NavigationMenuItem = NavigationMenuPrimitive.Item;

export const navigationMenuTriggerStyle = cva(
  'inline-flex h-10 items-center justify-center gap-1 rounded-md px-3 font-medium text-foreground text-sm transition-colors hover:bg-muted focus-visible:outline-2 focus-visible:outline-ring focus-visible:outline-offset-2 data-[state=open]:bg-muted data-[active]:text-primary',
);

export function NavigationMenuTrigger({
  className,
  children,
  ...props
}: React.ComponentProps<typeof NavigationMenuPrimitive.Trigger>) {
  return (
    <NavigationMenuPrimitive.Trigger
      data-slot="navigation-menu-trigger"
      className={cn(navigationMenuTriggerStyle(), 'group', className)}
      {...props}
    >
      {children}
      <ChevronDownIcon
        className="size-4 transition-transform duration-200 group-data-[state=open]:rotate-180"
        aria-hidden="true"
      />
    </NavigationMenuPrimitive.Trigger>
  );
}

export function NavigationMenuContent({
  className,
  ...props
}: React.ComponentProps<typeof NavigationMenuPrimitive.Content>) {
  const inViewport = useContext(ViewportContext);
  return (
    <NavigationMenuPrimitive.Content
      data-slot="navigation-menu-content"
      className={cn(
        inViewport
          ? 'top-0 left-0 w-full md:absolute md:w-auto'
          : 'absolute top-full left-0 z-50 mt-1 overflow-hidden rounded-lg border border-border bg-popover text-popover-foreground shadow-xl data-[state=closed]:animate-fade-out data-[state=open]:animate-zoom-in',
        className,
      )}
      {...props}
    />
  );
}

export const NavigationMenuLink = NavigationMenuPrimitive.Link;
