import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

const here = fileURLToPath(new URL('.', import.meta.url));
const root = path.resolve(here, '../../..');

/** One register call the app's backend received. */
export interface RegisterCall {
  recipientId: string;
  webPush: { endpoint: string; keys: { p256dh: string; auth: string } };
  metadata: Record<string, unknown>;
}

/** One reported event, as the worker POSTed it. */
export interface ReportedEvent {
  type: 'delivered' | 'clicked' | 'dismissed';
  notificationId: string | null;
  action?: string;
}

/** The test app: its page, workers and a tiny backend (register route, event report route). */
export interface WorkerApp {
  url: string;
  registerCalls: RegisterCall[];
  reported: ReportedEvent[];
  /** Report requests answered, with their status. */
  reportAttempts: number[];
  /** Make `/api/events` answer 503 (down) or 204 (up). */
  setReportUp(up: boolean): void;
  /** Resolve once the reported events satisfy `test`. */
  waitForReport(test: (events: ReportedEvent[]) => boolean): Promise<ReportedEvent[]>;
  waitForRegisterCall(test: (call: RegisterCall) => boolean): Promise<RegisterCall>;
  close(): Promise<void>;
}

/**
 * Bundle the page script (it uses the shared IndexedDB contract from src/common) and the Workbox
 * recipe worker (which imports the built `pushbridge/sw`, as an installed package would be).
 */
export async function buildWorkerAppAssets(): Promise<{ dir: string; remove(): void }> {
  const outDir = mkdtempSync(path.join(tmpdir(), 'pushbridge-worker-app-'));
  const distSw = path.join(root, 'dist/sw.js');
  if (!existsSync(path.join(root, 'dist/pushbridge-sw.js')) || !existsSync(distSw)) throw new Error('dist/ is missing: run `npm run build` first');
  const common = { configFile: false as const, logLevel: 'silent' as const, root };
  await build({
    ...common,
    build: { outDir, emptyOutDir: false, minify: false, target: 'es2022', lib: { entry: path.join(here, 'page.ts'), formats: ['es'], fileName: () => 'page.js' } },
  });
  await build({
    ...common,
    resolve: { alias: { 'pushbridge/sw': distSw } },
    define: { 'process.env.NODE_ENV': JSON.stringify('production'), 'self.__WB_MANIFEST': JSON.stringify([{ url: '/precached.txt', revision: '1' }]) },
    build: {
      outDir,
      emptyOutDir: false,
      minify: true,
      target: 'es2022',
      lib: { entry: path.join(here, 'recipe-sw.mts'), formats: ['iife'], name: 'recipe', fileName: () => 'recipe-sw.js' },
    },
  });
  return { dir: outDir, remove: () => rmSync(outDir, { recursive: true, force: true }) };
}

async function body(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request as AsyncIterable<Buffer>) chunks.push(chunk);
  return JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null');
}

/** Start the test app on 127.0.0.1 (a secure context) at a free port, serving assets built in `outDir`. */
export async function startWorkerApp(outDir: string): Promise<WorkerApp> {
  const files: Record<string, [string, string]> = {
    '/page.js': [path.join(outDir, 'page.js'), 'text/javascript'],
    '/recipe-sw.js': [path.join(outDir, 'recipe-sw.js'), 'text/javascript'],
    '/test-sw.js': [path.join(here, 'test-sw.js'), 'text/javascript'],
    '/pushbridge-sw.js': [path.join(root, 'dist/pushbridge-sw.js'), 'text/javascript'],
  };
  const registerCalls: RegisterCall[] = [];
  const reported: ReportedEvent[] = [];
  const reportAttempts: number[] = [];
  const reportWaiters: (() => void)[] = [];
  const registerWaiters: (() => void)[] = [];
  let reportUp = true;

  const server = createServer((request, response) => {
    void (async () => {
      const { pathname } = new URL(request.url ?? '/', 'http://x');
      if (request.method === 'POST' && pathname === '/api/register') {
        registerCalls.push((await body(request)) as RegisterCall);
        for (const wake of registerWaiters.splice(0)) wake();
        response.writeHead(201, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ subscriberId: `sub-${registerCalls.length}`, deviceId: randomUUID() }));
        return;
      }
      if (request.method === 'POST' && pathname === '/api/events') {
        const events = ((await body(request)) as { events: ReportedEvent[] }).events;
        reportAttempts.push(reportUp ? 204 : 503);
        if (reportUp) reported.push(...events);
        for (const wake of reportWaiters.splice(0)) wake();
        response.writeHead(reportUp ? 204 : 503);
        response.end();
        return;
      }
      if (pathname === '/precached.txt') {
        response.writeHead(200, { 'content-type': 'text/plain' });
        response.end('precached by the recipe worker');
        return;
      }
      const file = files[pathname];
      // Any other path is the SPA's route: the page itself.
      const [filePath, type] = file ?? [path.join(here, 'index.html'), 'text/html'];
      response.writeHead(200, { 'content-type': type, 'cache-control': 'no-store' });
      response.end(readFileSync(filePath));
    })().catch((error: unknown) => {
      response.writeHead(500);
      response.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    registerCalls,
    reported,
    reportAttempts,
    setReportUp: (up) => void (reportUp = up),
    async waitForReport(test) {
      while (!test(reported)) await new Promise<void>((resolve) => reportWaiters.push(resolve));
      return reported;
    },
    async waitForRegisterCall(test) {
      for (;;) {
        const found = registerCalls.find(test);
        if (found) return found;
        await new Promise<void>((resolve) => registerWaiters.push(resolve));
      }
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
