// `npm run bench`: what pushbridge costs a page and a worker, measured in headless Chromium on
// loopback. Bounded: a fixed number of runs per measure, each with a timeout. Prints a table and
// writes reports/bench.json.
import { chromium, type BrowserContext } from '@playwright/test';
import { build as esbuild } from 'esbuild';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build as viteBuild } from 'vite';
import { createService } from '../../demo/service/create-service.ts';
import { browserPath } from '../support/browsers.ts';
import { openCdpPush } from '../support/cdp-push.ts';
import { startClientBackend } from '../support/client-backend.ts';
import { startFakeGcm, type FakeGcm } from '../support/fake-gcm.ts';
import { summarize, type Summary } from './summarize.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const RUNS = { moduleEval: 10, workerEval: 10, subscribe: 5, push: 50, sync: 20 } as const;
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'];

interface AppWindow {
  app: {
    client: { subscribe(): Promise<unknown> };
    createPushClient(options: unknown): { sync(): Promise<string>; close(): void };
    vapidPublicKey: string;
  };
  pushManagerMs: number[];
}

function temporaryDir(prefix: string): string {
  return mkdtempSync(path.join(tmpdir(), prefix));
}

async function withDeadline<T>(what: string, ms: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms} ms`)), ms);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

/** The test app, plus the bundles measured here, in one directory the backend serves. */
async function buildAssets(): Promise<string> {
  const dir = temporaryDir('pushbridge-bench-');
  await viteBuild({ configFile: false, logLevel: 'warn', root: path.join(root, 'test/e2e/client-app'), build: { outDir: dir, emptyOutDir: true, target: 'es2022' } });
  // The page entry as an app's bundler ships it (see test/unit/size/bundle-size.ts).
  await esbuild({
    entryPoints: [path.join(root, 'src/index.ts')],
    bundle: true,
    minify: true,
    format: 'esm',
    splitting: true,
    target: 'es2022',
    outdir: path.join(dir, 'bench/pkg'),
    logLevel: 'silent',
  });
  // The ready-made worker with a clock around its top level, reporting on a BroadcastChannel.
  await esbuild({
    entryPoints: [path.join(root, 'sw/default-worker.ts')],
    bundle: true,
    minify: true,
    format: 'iife',
    target: 'es2022',
    define: { 'process.env.NODE_ENV': '"production"' },
    banner: { js: 'const __benchStart = performance.now();' },
    footer: { js: "new BroadcastChannel('bench').postMessage({ evalMs: performance.now() - __benchStart });" },
    outfile: path.join(dir, 'bench/sw-eval.js'),
    logLevel: 'silent',
  });
  mkdirSync(path.join(dir, 'bench/blank'), { recursive: true });
  writeFileSync(path.join(dir, 'bench/blank/index.html'), '<!doctype html><title>blank</title>');
  return dir;
}

async function launch(gcm: FakeGcm): Promise<{ context: BrowserContext; close(): Promise<void> }> {
  const profile = temporaryDir('pushbridge-bench-profile-');
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: browserPath('chromium'),
    headless: true,
    args: [...CHROMIUM_ARGS, ...gcm.args],
    permissions: ['notifications'],
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

async function main(): Promise<void> {
  const dataDir = temporaryDir('pushbridge-bench-data-');
  const assets = await buildAssets();
  const service = await createService({ dataDir });
  const gcm = await startFakeGcm();
  const backend = await startClientBackend({
    appDir: assets,
    workerDir: path.join(root, 'dist'),
    service: { url: service.url, serverKey: service.serverKeys[0] as string, vapidPublicKey: service.vapidPublicKey },
  });
  const results: Record<string, Summary> = {};
  try {
    // 1. Page module evaluation: script CPU time (DevTools' ScriptDuration) of importing the entry.
    {
      const cpu: number[] = [];
      for (let run = 0; run < RUNS.moduleEval; run++) {
        const browser = await launch(gcm);
        const page = await browser.context.newPage();
        await page.goto(`${backend.url}/bench/blank/`);
        const cdp = await browser.context.newCDPSession(page);
        await cdp.send('Performance.enable');
        const scriptSeconds = async (): Promise<number> =>
          (await cdp.send('Performance.getMetrics')).metrics.find((metric) => metric.name === 'ScriptDuration')?.value ?? 0;
        // Fetch first, so that only compiling and evaluating is measured.
        await page.evaluate(async () => void (await fetch('/bench/pkg/index.js')).text());
        const before = await scriptSeconds();
        await page.evaluate(() => import('/bench/pkg/index.js' as string));
        cpu.push(((await scriptSeconds()) - before) * 1000);
        await browser.close();
      }
      results['page module evaluation, script CPU (ms)'] = summarize(cpu);
    }

    // 2. Worker script evaluation: the ready-made worker's top level, timed inside the worker.
    {
      const browser = await launch(gcm);
      const page = await browser.context.newPage();
      await page.goto(`${backend.url}/bench/blank/`);
      const times: number[] = [];
      for (let run = 0; run < RUNS.workerEval; run++) {
        const ms = await withDeadline(
          'worker evaluation',
          10_000,
          page.evaluate(async (scope) => {
            const channel = new BroadcastChannel('bench');
            const reported = new Promise<number>((resolve) => {
              channel.onmessage = (event: MessageEvent<{ evalMs: number }>) => resolve(event.data.evalMs);
            });
            await navigator.serviceWorker.register('/bench/sw-eval.js', { scope });
            const evalMs = await reported;
            channel.close();
            return evalMs;
          }, `/bench/run-${run}/`),
        );
        times.push(ms);
      }
      results['worker script evaluation (ms)'] = summarize(times);
      await browser.close();
    }

    // 3. subscribe() overhead: its whole time less the browser's own pushManager.subscribe().
    {
      const overhead: number[] = [];
      for (let run = 0; run < RUNS.subscribe; run++) {
        const browser = await launch(gcm);
        await browser.context.addInitScript(() => {
          const original = PushManager.prototype.subscribe;
          const times: number[] = [];
          (window as unknown as AppWindow).pushManagerMs = times;
          PushManager.prototype.subscribe = async function (this: PushManager, ...args: Parameters<PushManager['subscribe']>) {
            const started = performance.now();
            try {
              return await original.apply(this, args);
            } finally {
              times.push(performance.now() - started);
            }
          };
        });
        const page = await browser.context.newPage();
        await page.goto(`${backend.url}/?recipient=bench-${run}`);
        await page.waitForFunction(() => (window as unknown as Partial<AppWindow>).app !== undefined);
        const measured = await withDeadline(
          'subscribe()',
          30_000,
          page.evaluate(async () => {
            const w = window as unknown as AppWindow;
            const started = performance.now();
            await w.app.client.subscribe();
            const total = performance.now() - started;
            return total - w.pushManagerMs.reduce((sum, ms) => sum + ms, 0);
          }),
        );
        overhead.push(measured);
        await browser.close();
      }
      results['subscribe() overhead, without pushManager.subscribe (ms)'] = summarize(overhead);
    }

    // 4 and 5 on one subscribed page: sync() with nothing to do, and push → shown over CDP.
    {
      const browser = await launch(gcm);
      const page = await browser.context.newPage();
      await page.goto(`${backend.url}/?recipient=bench-push`);
      await page.waitForFunction(() => (window as unknown as Partial<AppWindow>).app !== undefined);
      await page.evaluate(() => (window as unknown as AppWindow).app.client.subscribe());

      const syncTimes = await page.evaluate(async (runs) => {
        const { app } = window as unknown as AppWindow;
        const client = app.createPushClient({
          vapidPublicKey: app.vapidPublicKey,
          serviceWorker: { url: '/pushbridge-sw.js' },
          register: { url: '/register' },
          recipientId: 'bench-push',
          autoSync: false,
        });
        const times: number[] = [];
        for (let run = 0; run < runs; run++) {
          const started = performance.now();
          const state = await client.sync();
          times.push(performance.now() - started);
          if (state !== 'subscribed') throw new Error(`sync() answered ${state}`);
        }
        client.close();
        return times;
      }, RUNS.sync);
      results['sync() with nothing changed (ms)'] = summarize(syncTimes);

      const push = await openCdpPush(browser.context, page, `${backend.url}/`);
      const pushTimes: number[] = [];
      for (let run = 0; run < RUNS.push; run++) {
        const title = `bench ${run}`;
        const shown = page.evaluate(
          (wanted) =>
            new Promise<void>((resolve) => {
              const channel = new BroadcastChannel('pushbridge');
              channel.onmessage = (event: MessageEvent<{ type?: string; title?: string }>) => {
                if (event.data.type === 'notification' && event.data.title === wanted) {
                  channel.close();
                  resolve();
                }
              };
            }),
          title,
        );
        // Let the page's listener attach before the push leaves.
        await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 0)));
        const started = performance.now();
        await push.send({ pushbridge: 1, notificationId: crypto.randomUUID(), channel: 'push', title, body: 'b', data: { url: '/' }, tag: title });
        await withDeadline('push → shown', 10_000, shown);
        pushTimes.push(performance.now() - started);
      }
      results['push event → notification shown, CDP (ms)'] = summarize(pushTimes);
      await browser.close();
    }
  } finally {
    await backend.close();
    await gcm.close();
    await service.close();
    rmSync(assets, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  }

  const rows = Object.entries(results).map(([name, s]) => `| ${name} | ${s.runs} | ${s.median} | ${s.p95} | ${s.min} | ${s.max} |`);
  console.log(['| measure | runs | median | p95 | min | max |', '|---|---|---|---|---|---|', ...rows].join('\n'));
  mkdirSync(path.join(root, 'reports'), { recursive: true });
  writeFileSync(path.join(root, 'reports/bench.json'), JSON.stringify({ at: new Date().toISOString(), results }, null, 2));
  console.log('wrote reports/bench.json');
}

await main();
