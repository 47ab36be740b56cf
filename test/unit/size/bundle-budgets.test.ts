import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build, type Rolldown } from 'vite';
import { afterAll, expect, it } from 'vitest';
import { measureBundle } from './bundle-size.ts';

// Size budgets, gzip level 9, each bundle with its dependencies, measured as
// research/anchor-sizes.md measured the other SDKs.
// - `pushbridge` (page): issue 4's 6 KiB, counted up front; the subscribe / hand-off code and
//   workbox-window load on demand.
// - `pushbridge/sw` and `pushbridge-sw.js`: issue 5 asked for 3 KiB and 3.5 KiB. Not met: idb is
//   about 1.3 KiB of it, and a worker cannot load code lazily (no import() in service workers),
//   so the hand-off for pushsubscriptionchange, the outbox and click routing are all in. The
//   budgets sit at the figures reached plus about 2%, so that growth fails here.
const BUDGETS = { page: 6 * 1024, sw: 5850, readyMade: 5900 } as const;

const root = fileURLToPath(new URL('../../../', import.meta.url));
const rows: string[] = [];

afterAll(() => {
  console.log(['| bundle | gzip up front | gzip with lazy chunks | budget |', '|---|---|---|---|', ...rows].join('\n'));
});

it('pushbridge (page entry) stays within its budget up front', async () => {
  const size = await measureBundle(`${root}src/index.ts`);
  rows.push(`| pushbridge | ${size.initialGzip} B | ${size.totalGzip} B | ${BUDGETS.page} B |`);
  expect(size.initialGzip).toBeLessThanOrEqual(BUDGETS.page);
  // The lazy parts really are split off: if everything were in one chunk these would be equal.
  expect(size.totalGzip - size.initialGzip).toBeGreaterThan(3000);
}, 60_000);

it('pushbridge/sw stays within its budget', async () => {
  const size = await measureBundle(`${root}sw/index.ts`);
  rows.push(`| pushbridge/sw | ${size.initialGzip} B | ${size.totalGzip} B | ${BUDGETS.sw} B |`);
  expect(size.totalGzip).toBeLessThanOrEqual(BUDGETS.sw);
}, 60_000);

it('pushbridge-sw.js (the shipped ready-made worker) stays within its budget', async () => {
  // The artifact itself, built as `npm run build` builds it.
  const output = await build({ configFile: `${root}vite.config.ts`, mode: 'classic-sw', logLevel: 'silent', build: { write: false } });
  const results = (Array.isArray(output) ? output : [output]) as Rolldown.RolldownOutput[];
  const code = results.flatMap((result) => result.output).map((chunk) => (chunk.type === 'chunk' ? chunk.code : '')).join('');
  const gzip = gzipSync(code, { level: 9 }).length;
  rows.push(`| pushbridge-sw.js | ${gzip} B | ${gzip} B | ${BUDGETS.readyMade} B |`);
  expect(gzip).toBeLessThanOrEqual(BUDGETS.readyMade);
}, 60_000);
