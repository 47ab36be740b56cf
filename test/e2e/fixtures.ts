import { chromium, firefox, test as base, type BrowserContext } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { startDemo, type Demo } from '../../demo/start-demo.ts';
import { createService, type Service } from '../../demo/service/create-service.ts';
import { browserPath } from '../support/browsers.ts';
import { startClientBackend, type ClientBackend } from '../support/client-backend.ts';
import { startFakeGcm, type FakeGcm } from '../support/fake-gcm.ts';
import { startFakeNotificationDaemon, type FakeNotificationDaemon } from '../support/fake-notification-daemon.ts';
import { startLocalPushService, type LocalPushService } from '../../demo/local-push/local-push-service.ts';

// Chromium as root, offline: no sandbox, and nothing that phones home.
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'];

/** The demo with its local service (the tests never use the hosted one). */
export type LocalDemo = Demo & { service: Service };

interface WorkerFixtures {
  /** The demo (local service, backend, page), one per Playwright worker. */
  demo: LocalDemo;
  fakeGcm: FakeGcm;
  notificationDaemon: FakeNotificationDaemon;
  /** test/e2e/client-app built with Vite: the browser package as an app uses it. */
  clientAppDir: string;
}

interface TestFixtures {
  /** A fresh local service with its own data dir (and so its own VAPID keys). */
  service: Service;
  /** The test app's backend, wired to {@link TestFixtures.service}. */
  clientBackend: ClientBackend;
  /** The browser of the running project (chromium or firefox), with a fresh profile. */
  browserContext: BrowserContext;
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

/** Chromium with a persistent profile: real subscribe through the fake GCM, real clicks through D-Bus. */
function launchChromium(profile: string, gcm: FakeGcm, daemon: FakeNotificationDaemon): Promise<BrowserContext> {
  return chromium.launchPersistentContext(profile, {
    executablePath: browserPath('chromium'),
    headless: true,
    args: [...CHROMIUM_ARGS, ...gcm.args],
    env: { ...process.env, DBUS_SESSION_BUS_ADDRESS: daemon.address },
    // Without a grant, headless Chromium answers requestPermission() with 'denied' at once.
    permissions: ['notifications'],
  });
}

/** Firefox with a persistent profile, wired to a local push service: nothing stubbed. */
function launchFirefox(profile: string, pushService: LocalPushService): Promise<BrowserContext> {
  return firefox.launchPersistentContext(profile, {
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
}

export const test = base.extend<TestFixtures, WorkerFixtures>({
  demo: [
    async ({}, use) => {
      const dataDir = temporaryDir('pushbridge-data-');
      // An empty env: a developer's PUSH_BASE_URL must not send the tests to the hosted service.
      const demo = await startDemo({ dataDir, env: {} });
      if (!demo.service) throw new Error('The demo started without its local service.');
      await use(demo as LocalDemo);
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
  clientAppDir: [
    async ({}, use) => {
      const outDir = temporaryDir('pushbridge-client-app-');
      await build({
        configFile: false,
        logLevel: 'warn',
        root: fileURLToPath(new URL('./client-app', import.meta.url)),
        build: { outDir, emptyOutDir: true, target: 'es2022' },
      });
      await use(outDir);
      rmSync(outDir, { recursive: true, force: true });
    },
    { scope: 'worker' },
  ],
  service: async ({}, use) => {
    const dataDir = temporaryDir('pushbridge-service-');
    const service = await createService({ dataDir });
    await use(service);
    await service.close();
    rmSync(dataDir, { recursive: true, force: true });
  },
  clientBackend: async ({ service, clientAppDir }, use) => {
    const backend = await startClientBackend({
      appDir: clientAppDir,
      workerDir: fileURLToPath(new URL('../../dist', import.meta.url)),
      service: { url: service.url, serverKey: service.serverKeys[0] as string, vapidPublicKey: service.vapidPublicKey },
    });
    await use(backend);
    await backend.close();
  },
  browserContext: async ({ fakeGcm, notificationDaemon, pushService }, use, testInfo) => {
    const profile = temporaryDir(`pushbridge-${testInfo.project.name}-`);
    const context =
      testInfo.project.name === 'firefox'
        ? await launchFirefox(profile, pushService)
        : await launchChromium(profile, fakeGcm, notificationDaemon);
    await use(context);
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  },
  pushService: async ({}, use) => {
    const service = await startLocalPushService();
    await use(service);
    await service.close();
  },
  chromiumContext: async ({ fakeGcm, notificationDaemon }, use) => {
    const profile = temporaryDir('pushbridge-chromium-');
    const context = await launchChromium(profile, fakeGcm, notificationDaemon);
    await use(context);
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  },
  firefoxContext: async ({ pushService }, use) => {
    const profile = temporaryDir('pushbridge-firefox-');
    const context = await launchFirefox(profile, pushService);
    await use(context);
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  },
});

export { expect } from '@playwright/test';
