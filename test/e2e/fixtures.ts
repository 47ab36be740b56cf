import { chromium, firefox, test as base, type BrowserContext } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startDemo, type Demo } from '../../demo/start-demo.ts';
import { browserPath } from '../support/browsers.ts';
import { startFakeGcm, type FakeGcm } from '../support/fake-gcm.ts';
import { startFakeNotificationDaemon, type FakeNotificationDaemon } from '../support/fake-notification-daemon.ts';
import { startLocalPushService, type LocalPushService } from '../support/local-push-service.ts';

// Chromium as root, offline: no sandbox, and nothing that phones home.
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'];

interface WorkerFixtures {
  /** The demo (local service, backend, page), one per Playwright worker. */
  demo: Demo;
  fakeGcm: FakeGcm;
  notificationDaemon: FakeNotificationDaemon;
}

interface TestFixtures {
  /** Firefox's push service, fresh for each test. */
  pushService: LocalPushService;
  /** Chromium with a fresh profile, real subscribe through the fake GCM, real clicks through D-Bus. */
  chromiumContext: BrowserContext;
  /** Firefox with a fresh profile, wired to {@link TestFixtures.pushService}. */
  firefoxContext: BrowserContext;
}

function temporaryDir(prefix: string): string {
  return mkdtempSync(path.join(tmpdir(), prefix));
}

export const test = base.extend<TestFixtures, WorkerFixtures>({
  demo: [
    async ({}, use) => {
      const dataDir = temporaryDir('pushbridge-data-');
      const demo = await startDemo({ dataDir });
      await use(demo);
      await demo.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
    { scope: 'worker' },
  ],
  fakeGcm: [
    async ({}, use) => {
      const gcm = await startFakeGcm();
      await use(gcm);
      await gcm.close();
    },
    { scope: 'worker' },
  ],
  notificationDaemon: [
    async ({}, use) => {
      const daemon = await startFakeNotificationDaemon();
      await use(daemon);
      await daemon.stop();
    },
    { scope: 'worker' },
  ],
  pushService: async ({}, use) => {
    const service = await startLocalPushService();
    await use(service);
    await service.close();
  },
  chromiumContext: async ({ fakeGcm, notificationDaemon }, use) => {
    const profile = temporaryDir('pushbridge-chromium-');
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: browserPath('chromium'),
      headless: true,
      args: [...CHROMIUM_ARGS, ...fakeGcm.args],
      env: { ...process.env, DBUS_SESSION_BUS_ADDRESS: notificationDaemon.address },
      // Without a grant, headless Chromium answers requestPermission() with 'denied' at once.
      permissions: ['notifications'],
    });
    await use(context);
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  },
  firefoxContext: async ({ pushService }, use) => {
    const profile = temporaryDir('pushbridge-firefox-');
    const context = await firefox.launchPersistentContext(profile, {
      channel: 'moz-firefox',
      executablePath: browserPath('firefox'),
      headless: true,
      firefoxUserPrefs: {
        'dom.push.enabled': true,
        // Automation turns the push connection off unless told otherwise.
        'dom.push.connection.enabled': true,
        'dom.push.serverURL': pushService.websocketUrl,
        'dom.push.testing.allowInsecureServerURL': true,
        // The permission a user would grant at the prompt.
        'permissions.default.desktop-notification': 1,
        // No desktop notification daemon: Firefox's own alert windows instead.
        'alerts.useSystemBackend': false,
      },
    });
    await use(context);
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  },
});

export { expect } from '@playwright/test';
