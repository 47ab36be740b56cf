import { defineConfig } from '@playwright/test';

// Both browsers are launched by the fixtures (test/e2e/fixtures.ts), with persistent profiles:
// Chromium refuses push subscriptions in incognito contexts. A project picks the spec files
// written for its browser, and both take the `.both.spec.ts` files.
export default defineConfig({
  testDir: 'test/e2e',
  timeout: 60_000,
  expect: { timeout: 15_000 },
  workers: 1,
  retries: 0,
  forbidOnly: !!process.env.CI,
  reporter: [['list'], ['json', { outputFile: 'reports/e2e.json' }]],
  projects: [
    { name: 'chromium', testMatch: /\.(chromium|both)\.spec\.ts$/ },
    { name: 'firefox', testMatch: /\.(firefox|both)\.spec\.ts$/ },
  ],
});
