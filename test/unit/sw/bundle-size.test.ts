import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build, type Rolldown } from 'vite';
import { describe, expect, it } from 'vitest';

// Size guards, in gzip bytes (level 9): the module with its dependencies (idb), minified as an
// app's bundler would include it, and the ready-made classic worker (with workbox-core).
// Issue 5 asked for 3 KiB and 3.5 KiB. Not met: idb alone is about 1.2 KiB of it, and the
// worker carries the whole shared hand-off (postRegistration, PushError's messages, fingerprint)
// for pushsubscriptionchange. The checks sit at the figures reached, so that growth fails here.
// Raised from 5300 / 5450 (5232 / 5351 reached) for the review fixes: click routed to one window,
// bounded lock wait with a pending record, capped outbox, shared subscribeWithKey (about +450 B).
const MODULE_BUDGET = 5700;
const READY_MADE_BUDGET = 5850;

const root = fileURLToPath(new URL('../../../', import.meta.url));

async function gzipOf(output: Awaited<ReturnType<typeof build>>): Promise<{ raw: number; gzip: number }> {
  const results = (Array.isArray(output) ? output : [output]) as Rolldown.RolldownOutput[];
  const code = results.flatMap((result) => result.output).map((chunk) => (chunk.type === 'chunk' ? chunk.code : '')).join('');
  return { raw: Buffer.byteLength(code), gzip: gzipSync(code, { level: 9 }).length };
}

describe('bundle size', () => {
  it(`pushbridge/sw with its dependencies stays within ${MODULE_BUDGET} bytes gzip`, async () => {
    const size = await gzipOf(
      await build({
        configFile: false,
        root,
        logLevel: 'silent',
        build: {
          write: false,
          minify: true,
          target: 'es2022',
          lib: { entry: `${root}sw/index.ts`, formats: ['es'], fileName: 'sw' },
          // Vite keeps an ES library readable; an app's production build minifies it.
          rolldownOptions: { output: { minify: true } },
        },
      }),
    );
    console.info(`pushbridge/sw bundled: ${size.raw} B minified, ${size.gzip} B gzip`);
    expect(size.gzip).toBeLessThanOrEqual(MODULE_BUDGET);
  }, 60_000);

  it(`pushbridge-sw.js stays within ${READY_MADE_BUDGET} bytes gzip`, async () => {
    const size = await gzipOf(
      await build({ configFile: `${root}vite.config.ts`, mode: 'classic-sw', logLevel: 'silent', build: { write: false } }),
    );
    console.info(`pushbridge-sw.js: ${size.raw} B minified, ${size.gzip} B gzip`);
    expect(size.gzip).toBeLessThanOrEqual(READY_MADE_BUDGET);
  }, 60_000);
});
