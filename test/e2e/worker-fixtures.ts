import type { Page } from '@playwright/test';
import { test as base } from './fixtures.ts';
import type { PageApi } from './worker-app/page.ts';
import { buildWorkerAppAssets, startWorkerApp, type WorkerApp } from './worker-app/worker-app-server.ts';

declare global {
  interface Window {
    /** The test page's API (worker-app/page.ts). */
    app: PageApi;
  }
}

interface WorkerAppTestFixtures {
  /** The test app (page, workers, register and report routes), fresh for each test. */
  workerApp: WorkerApp;
}

interface WorkerAppWorkerFixtures {
  /** The page script and the recipe worker, bundled once per Playwright worker. */
  workerAppAssets: string;
}

/** The shared fixtures plus the worker test app. */
export const test = base.extend<WorkerAppTestFixtures, WorkerAppWorkerFixtures>({
  workerAppAssets: [
    async ({}, use) => {
      const assets = await buildWorkerAppAssets();
      await use(assets.dir);
      assets.remove();
    },
    { scope: 'worker' },
  ],
  workerApp: async ({ workerAppAssets }, use) => {
    const app = await startWorkerApp(workerAppAssets);
    await use(app);
    await app.close();
  },
});

/** Open the app at `path` and wait until its page script is running. */
export async function openApp(page: Page, app: WorkerApp, path = '/'): Promise<void> {
  await page.goto(`${app.url}${path}`);
  await page.locator('body[data-ready="true"]').waitFor({ state: 'attached' });
}

export { expect } from './fixtures.ts';
