import { useState } from 'react';
import { isRouteErrorResponse, Outlet } from 'react-router';
import { AccessError } from '~/components/admin/access-error';
import { AccessDenied, AccessRedirect } from '~/components/admin/access-state';
import { AdminHeader, type SettingsDialog } from '~/components/admin/admin-header';
import { AdminTabs } from '~/components/admin/admin-tabs';
import { GlobalSearch } from '~/components/admin/global-search';
import { MailHoldBanner } from '~/components/admin/mail-hold-banner';
import { SettingsDialogs } from '~/components/admin/settings-dialogs';
import { StatsCards } from '~/components/admin/stats-cards';
import { Alert } from '~/components/ui/alert';
import { useHydrated } from '~/components/use-hydrated';
import { isAccessRefusal } from '~/domain/admin/access';
import { ACCESS_MESSAGES } from '~/domain/admin/messages';
import { SANDBOX_POLICY_MESSAGES } from '~/domain/payments/sandbox-policy';
import { can } from '~/domain/staff/permissions';
import { heldForTwoFactor, requireStaffPage } from '~/server/admin/access.server';
import { getNotificationFeed } from '~/server/admin/notifications.server';
import { warmReports } from '~/server/admin/reports.server';
import { getDashboardStats } from '~/server/admin/stats.server';
import { readMailHold, waitingMessages } from '~/server/email/mail-hold.server';
import { getCardAvailability } from '~/server/payments/sandbox-mode.server';
import type { Route } from './+types/layout';

/*
 * /admin and its tabs: header (notifications, settings dialogs, logout),
 * statistics cards, search box, the six tabs as child routes. Every child loader and action checks
 * the administrator itself; this loader only serves the frame.
 */

export function meta({ error }: Route.MetaArgs) {
  const title =
    error && isRouteErrorResponse(error) && isAccessRefusal(error.data)
      ? `${error.data.message} | Soovenirs`
      : 'Administration | Soovenirs';
  return [{ title }, { name: 'robots', content: 'noindex, nofollow' }];
}

export function headers() {
  // Figures and customers' data: never kept by a shared cache.
  return { 'Cache-Control': 'private, no-store' };
}

export async function loader({ request }: Route.LoaderArgs) {
  // The pages: anonymous visitors to /login remembering the page, customers to the home
  // page. Their resource routes (/admin/api, /admin/exports) and the tabs' own loaders and actions
  // keep answering 401/403 through requireStaff; the layout's redirect wins for a page.
  const admin = await requireStaffPage(request);
  const adminName = `${admin.firstName} ${admin.lastName}`.trim() || admin.email;
  // An administrator held by the team's two-factor rule sees « Sécurité » alone: no figures, no
  // notifications, no tabs (their resource routes would refuse them).
  if (await heldForTwoFactor(admin)) {
    return {
      adminName,
      role: admin.role,
      held: true as const,
      stats: null,
      feed: null,
      paymentAlert: null,
      mailHold: null,
      canReleaseMail: false,
    };
  }
  const [stats, feed, card, hold] = await Promise.all([
    getDashboardStats(),
    getNotificationFeed(admin.id),
    getCardAvailability(),
    readMailHold(),
  ]);
  // A restored or copied shop sends no e-mail until released (decision 041): every tab says so.
  const mailHold = hold
    ? { reason: hold.reason, since: hold.since, source: hold.source, waiting: await waitingMessages() }
    : null;
  // Releasing is an intent of the e-mails' settings (access-rules.ts, routes/admin/api/emails).
  const canReleaseMail = can(admin.role, 'settings');
  // The Rapports tab's charts read most of the orders: start computing them now, in the background,
  // so that they are ready (cached) when the tab is opened.
  warmReports();
  // Until a real gateway is configured, customers cannot pay by card: every tab says so.
  const paymentAlert = card.available ? null : SANDBOX_POLICY_MESSAGES.adminBanner[card.reason];
  return { adminName, role: admin.role, held: false as const, stats, feed, paymentAlert, mailHold, canReleaseMail };
}

export default function AdminLayout({ loaderData }: Route.ComponentProps) {
  const [dialog, setDialog] = useState<SettingsDialog | null>(null);
  const hydrated = useHydrated();
  return (
    <div
      className="mx-auto flex w-full max-w-7xl flex-col gap-5 px-4 py-6 sm:px-6 lg:px-8"
      data-hydrated={hydrated ? 'true' : 'false'}
    >
      <AdminHeader
        adminName={loaderData.adminName}
        role={loaderData.role}
        feed={loaderData.feed}
        onOpenDialog={setDialog}
      />
      {loaderData.held ? (
        <Outlet />
      ) : (
        <>
          {loaderData.paymentAlert ? (
            <Alert variant="danger" className="font-semibold">
              {loaderData.paymentAlert}
            </Alert>
          ) : null}
          {loaderData.mailHold ? (
            <MailHoldBanner hold={loaderData.mailHold} canRelease={loaderData.canReleaseMail} />
          ) : null}
          <StatsCards stats={loaderData.stats} />
          <GlobalSearch />
          <AdminTabs role={loaderData.role} />
          <Outlet />
          <SettingsDialogs open={dialog} onOpenChange={(open) => (open ? null : setDialog(null))} />
        </>
      )}
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  if (isRouteErrorResponse(error) && isAccessRefusal(error.data)) {
    const refusal = error.data;
    if (refusal.access === 'unauthenticated' || refusal.access === 'forbidden') {
      return (
        <AccessRedirect access={refusal.access} message={refusal.message} redirectTo={refusal.redirectTo ?? '/'} />
      );
    }
    if (refusal.access === 'denied') return <AccessDenied />;
    return <AccessError detail={refusal.message} />;
  }
  return <AccessError detail={ACCESS_MESSAGES.permissionsError} />;
}
