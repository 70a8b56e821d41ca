import { recheckStreams } from './admin/notification-streams.server';
import { invalidateLocalDashboardStats } from './admin/stats.server';
import { invalidateLocalContentCache } from './content/source.server';
import { type BroadcastMessage, startBroadcastListener, stopBroadcastListener } from './db/broadcast.server';
import { bumpLocalPageVersion } from './page-versions.server';

/*
 * What this process caches, kept in step with the other instances of the shop: each message of
 * db/broadcast.server.ts is applied to the local cache it names. After the listening connection
 * came back (database restarted, network cut), messages may have been lost: everything is
 * forgotten, which costs one fresh rendering of each page.
 */

export function applyBroadcast(message: BroadcastMessage): void {
  switch (message.topic) {
    case 'page-version':
      bumpLocalPageVersion(message.page);
      return;
    case 'content':
      invalidateLocalContentCache(message.prefix);
      return;
    case 'dashboard-stats':
      invalidateLocalDashboardStats();
      return;
    case 'staff-access':
      void recheckStreams();
      return;
  }
}

export function forgetEverythingCached(): void {
  bumpLocalPageVersion('priceList');
  invalidateLocalContentCache();
  invalidateLocalDashboardStats();
  // A deactivation may have been missed: the open streams' sessions are checked again.
  void recheckStreams();
}

/** With the server, once the database is open; stopped on shutdown. */
export async function startSharedCaches(): Promise<void> {
  await startBroadcastListener({ onMessage: applyBroadcast, onReconnect: forgetEverythingCached });
}

export const stopSharedCaches = stopBroadcastListener;
