import { cpSync } from 'node:fs';
import path from 'node:path';
import { startClientBackend, type ClientBackend } from '../support/client-backend.ts';
import { buildConsumerApp, type ConsumerApp } from '../support/consumer-app.ts';
import { test as base } from './fixtures.ts';

interface ConsumerWorkerFixtures {
  /** test/consumer with the packed tarball installed and built, once per Playwright worker. */
  consumer: ConsumerApp & { appDir: string };
}

interface ConsumerTestFixtures {
  /** The consumer's site behind a caller's backend wired to a fresh local service. */
  consumerBackend: ClientBackend;
}

/** The shared fixtures plus the consumer app built from `npm pack`. */
export const test = base.extend<ConsumerTestFixtures, ConsumerWorkerFixtures>({
  consumer: [
    async ({}, use) => {
      const app = await buildConsumerApp();
      // The installed packages, for a page that imports the shipped ESM with an import map.
      for (const name of ['idb', 'workbox-window', 'pushbridge']) {
        cpSync(path.join(app.appDir, 'node_modules', name), path.join(app.siteDir, 'nm', name), { recursive: true });
      }
      cpSync(path.join(app.appDir, 'import-check.html'), path.join(app.siteDir, 'import-check.html'));
      await use(app);
      app.remove();
    },
    { scope: 'worker', timeout: 120_000 },
  ],
  consumerBackend: async ({ consumer, service }, use) => {
    const backend = await startClientBackend({
      appDir: consumer.siteDir,
      workerDir: consumer.siteDir,
      service: { url: service.url, serverKey: service.serverKeys[0] as string, vapidPublicKey: service.vapidPublicKey },
    });
    await use(backend);
    await backend.close();
  },
});

export { expect } from './fixtures.ts';
