import type { BrowserContext, CDPSession, Page } from '@playwright/test';

/** Sends pushes to one service worker registration over the DevTools protocol. */
export interface CdpPush {
  /** Deliver `data` (JSON-encoded unless a string) as a trusted `push` event. */
  send(data: unknown): Promise<void>;
  cdp: CDPSession;
}

/**
 * Find the registration of `scopeUrl` and deliver pushes to it with
 * `ServiceWorker.deliverPushMessage`. Chromium's push service is out of reach offline, so this
 * is the one stubbed boundary; the event the worker gets is trusted. An unknown registration
 * id is accepted silently, so callers assert on what the worker did.
 */
export async function openCdpPush(context: BrowserContext, page: Page, scopeUrl: string): Promise<CdpPush> {
  const cdp = await context.newCDPSession(page);
  const origin = new URL(scopeUrl).origin;
  const registrationId = new Promise<string>((resolve) => {
    cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
      const found = registrations.find((registration) => registration.scopeURL === scopeUrl && !registration.isDeleted);
      if (found) resolve(found.registrationId);
    });
  });
  // Enabling replays the current registrations as events.
  await cdp.send('ServiceWorker.enable');
  const id = await registrationId;
  return {
    cdp,
    async send(data) {
      await cdp.send('ServiceWorker.deliverPushMessage', { origin, registrationId: id, data: typeof data === 'string' ? data : JSON.stringify(data) });
    },
  };
}
