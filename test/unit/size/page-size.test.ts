import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { measureBundle } from './bundle-size.ts';

// The budget of issue 4: the page entry, bundled for production with its dependencies, at most
// 6 KB gzip up front. workbox-window and the subscribe/hand-off code load only when needed.
const PAGE_BUDGET = 6 * 1024;

it(`the page entry loads at most ${PAGE_BUDGET} bytes gzip up front`, async () => {
  const size = await measureBundle(fileURLToPath(new URL('../../../src/index.ts', import.meta.url)));
  console.log(`pushbridge (page): ${size.initialGzip} B gzip up front, ${size.totalGzip} B with lazy chunks, ${size.totalMinified} B minified`);
  expect(size.initialGzip).toBeLessThanOrEqual(PAGE_BUDGET);
  // The lazy parts really are split off: if everything were in one chunk these would be equal.
  expect(size.totalGzip - size.initialGzip).toBeGreaterThan(3000);
}, 30_000);
