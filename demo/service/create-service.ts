import { mkdirSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { systemClock, type Clock } from './clock.ts';
import { openDatabase } from './database.ts';
import { createDeliveryWorker } from './delivery-worker.ts';
import { loadDevKeys } from './dev-keys.ts';
import { createDeviceStore, type DeviceStore } from './device-store.ts';
import { createEmulatorRoutes } from './emulator-routes.ts';
import { HttpError, sendError } from './http-json.ts';
import { createNotificationQueue, type DeliveryAttempt, type DeliveryOutcome, type NotificationStatus } from './notification-queue.ts';
import { createOtpRoute } from './otp-route.ts';
import { createOtpStore, type InboxMessage } from './otp-store.ts';
import { createOtpWorker } from './otp-worker.ts';
import { createPushRoutes } from './push-routes.ts';
import { createRateLimiter } from './rate-limiter.ts';
import { requestUrl } from './request-url.ts';
import { configFromKeys, parseServiceConfig, type ServiceConfig } from './service-config.ts';
import { createSettingsStore } from './settings-store.ts';
import { createTemplateStore } from './template-store.ts';
import { createVapidSigner } from './vapid-signer.ts';
import { loadVapidKeys } from './vapid-keys.ts';
import { isVapidSubject } from './vapid-subject.ts';
import { createWorkspaceKeys } from './workspace-keys.ts';

/** How deliveries are sent and retried; defaults follow decisions.md. */
export interface DeliveryOptions {
  /** Tries per device, the first included; 5. */
  maxTries?: number;
  /** Delay before the first retry, before jitter; 1000 ms. */
  retryBaseMs?: number;
  /** Largest delay between tries, before Retry-After; 60 000 ms. */
  retryMaxMs?: number;
  /** Messages in flight at once; 64. */
  concurrency?: number;
  /** Bound of one request to a push service; 30 000 ms. */
  timeoutMs?: number;
  /** Jitter source; Math.random. */
  random?: () => number;
  /** What sends the HTTP requests; global fetch. */
  fetch?: typeof fetch;
}

/** Options of {@link createService}. */
export interface ServiceOptions {
  /** Where the database lives (`service.db`). Created when absent. */
  dataDir: string;
  /** Port on 127.0.0.1 of both interfaces (of Interface A alone with `pushPort`); 0 picks a free one. */
  port?: number;
  /** Gives Interface B its own port; 0 picks a free one. */
  pushPort?: number;
  /**
   * The config file's content (decisions.md); it replaces the environment's keys. Checked with
   * {@link parseServiceConfig}.
   */
  config?: unknown;
  /** Server keys of the default workspace when there is no config; else `PUSH_API_KEY`, else a generated `sk_` key. */
  serverKeys?: string[];
  /** Where `OTP_API_KEY`, `PUSH_API_KEY`, `PUSH_CLIENT_KEY`, `PUSH_ALLOWED_ORIGINS` are read; process.env. */
  env?: Readonly<Record<string, string | undefined>>;
  /** VAPID subject; the config's, else `mailto:dev@example.com`. */
  vapidSubject?: string;
  /** Time for limits, intervals and retries; the system clock. */
  clock?: Clock;
  delivery?: DeliveryOptions;
  /** One line per request (method, path, status, time); silent by default. */
  log?: (line: string) => void;
}

/** A running local service. */
export interface Service {
  /** Interface B's address, `{push_base_url}` (also Interface A's unless `pushPort` was given). */
  url: string;
  /** Interface A's address, `{base_url}`. */
  otpUrl: string;
  /** Interface B's address, `{push_base_url}`. */
  pushUrl: string;
  vapidPublicKey: string;
  /** Interface B server keys in force (the generated dev key among them), first workspace first. */
  serverKeys: string[];
  /** Interface A keys in force. */
  otpKeys: string[];
  /** The keys this start generated or reused from the data dir, when no config or environment gave them. */
  generatedKeys: { otp?: string; push?: string };
  /** The configuration in force. */
  config: ServiceConfig;
  store: DeviceStore;
  /** Every delivery attempt, oldest first. */
  readonly attempts: DeliveryAttempt[];
  /** A notification's state and per-device attempts. */
  notification(notificationId: string): NotificationStatus | undefined;
  /** The emulated messaging-app inbox of an E.164 number, newest first. */
  otpInbox(number: string): InboxMessage[];
  /** Called after each batch of delivery outcomes is committed. */
  onDeliveryRecorded(listener: (outcomes: readonly DeliveryOutcome[]) => void): () => void;
  /** Stop accepting, finish in-flight requests and deliveries, close the database. */
  close(): Promise<void>;
}

type Surface = 'both' | 'otp' | 'push';

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
}

function resolveConfig(options: ServiceOptions, devKeys: () => { otpKey: string; pushServerKey: string }): { config: ServiceConfig; generated: Service['generatedKeys'] } {
  if (options.config !== undefined) return { config: parseServiceConfig(options.config), generated: {} };
  const env = options.env ?? process.env;
  const given = (name: string): string | undefined => (env[name] && env[name].length > 0 ? env[name] : undefined);
  const generated: Service['generatedKeys'] = {};
  const otpKey = given('OTP_API_KEY') ?? (generated.otp = devKeys().otpKey);
  const pushServerKeys = options.serverKeys ?? [given('PUSH_API_KEY') ?? (generated.push = devKeys().pushServerKey)];
  const config = configFromKeys({
    otpKey,
    pushServerKeys,
    pushClientKey: given('PUSH_CLIENT_KEY'),
    allowedOrigins: (given('PUSH_ALLOWED_ORIGINS') ?? '').split(',').map((origin) => origin.trim()).filter((origin) => origin.length > 0),
  });
  return { config, generated };
}

/**
 * Start the local stand-in for the hosted service: Interface A (OTP) and Interface B
 * (notifications) with real Web Push delivery, state and queues in SQLite. Listens on
 * 127.0.0.1 only. Everything it answers 202 for is committed before the answer.
 *
 * @example
 * ```ts
 * const service = await createService({ dataDir: '.pushbridge', port: 8787 });
 * console.log(service.url, service.vapidPublicKey);
 * ```
 */
export async function createService(options: ServiceOptions): Promise<Service> {
  // web-push would refuse it only when signing, in the middle of every delivery. (The config's
  // subject is checked by parseServiceConfig.)
  if (options.vapidSubject !== undefined && !isVapidSubject(options.vapidSubject)) {
    throw new TypeError(`VAPID subject ${JSON.stringify(options.vapidSubject)} must be a mailto: or https: URL (e.g. mailto:dev@example.com)`);
  }
  mkdirSync(options.dataDir, { recursive: true });
  const clock = options.clock ?? systemClock();
  const database = openDatabase(options.dataDir);
  const settings = createSettingsStore(database);
  let devKeys: ReturnType<typeof loadDevKeys> | undefined;
  const { config, generated } = resolveConfig(options, () => (devKeys ??= loadDevKeys(settings, options.dataDir)));
  const subject = options.vapidSubject ?? config.vapid.subject;
  const vapid = loadVapidKeys(settings, options.dataDir);
  const store = createDeviceStore(database, clock);
  const templates = createTemplateStore(database);
  for (const workspace of config.push.workspaces) for (const template of workspace.templates) templates.put(workspace.id, template);
  const queue = createNotificationQueue(database, clock);
  const otpStore = createOtpStore(database, clock);
  const limiter = createRateLimiter(database, clock);
  const listeners = new Set<(outcomes: readonly DeliveryOutcome[]) => void>();
  const delivery = options.delivery ?? {};
  const worker = createDeliveryWorker({
    queue,
    signer: createVapidSigner(vapid, subject, clock),
    clock,
    maxTries: delivery.maxTries ?? 5,
    backoff: { baseMs: delivery.retryBaseMs ?? 1000, maxMs: delivery.retryMaxMs ?? 60_000, random: delivery.random ?? Math.random },
    concurrency: delivery.concurrency ?? 64,
    timeoutMs: delivery.timeoutMs ?? 30_000,
    send: delivery.fetch ?? fetch,
    onRecorded: (outcomes) => {
      for (const listener of listeners) listener(outcomes);
    },
  });
  const otpWorker = createOtpWorker(otpStore);
  const otpRoute = createOtpRoute({
    keys: config.otp.keys,
    routeLimitPerMinute: config.otp.routeLimitPerMinute,
    limiter,
    store: otpStore,
    onAccepted: () => otpWorker.kick(),
  });
  const push = createPushRoutes({
    keys: createWorkspaceKeys(config.push.workspaces),
    anonymousRateLimitPerMinute: config.push.rateLimitPerMinute,
    limiter,
    devices: store,
    templates,
    queue,
    ttlSeconds: config.push.ttlSeconds,
    onQueued: () => worker.kick(),
  });
  const emulator = createEmulatorRoutes({ vapidPublicKey: vapid.publicKey, otp: otpStore, queue, templates, push });
  const log = options.log ?? (() => {});

  async function route(request: IncomingMessage, response: ServerResponse, surface: Surface, url: URL | null): Promise<void> {
    if (!url) throw new HttpError(404, 'not_found', 'No such route.');
    const method = request.method;
    const only = (allowed: string): void => {
      if (method !== allowed) throw new HttpError(405, 'method_not_allowed', `Use ${allowed}.`);
    };
    if (url.pathname === '/api/send-otp' && surface !== 'push') {
      only('POST');
      await otpRoute(request, response);
    } else if (url.pathname === '/v1/subscribers/register' && surface !== 'otp') {
      if (method === 'OPTIONS') push.registerPreflight(request, response);
      else {
        only('POST');
        await push.register(request, response);
      }
    } else if (url.pathname === '/v1/send' && surface !== 'otp') {
      only('POST');
      await push.send(request, response);
    } else if (!(await emulator.handle(request, response, url))) {
      throw new HttpError(404, 'not_found', 'No such route.');
    }
  }

  function handler(surface: Surface) {
    return (request: IncomingMessage, response: ServerResponse): void => {
      const started = performance.now();
      // Parsed once, here: a target that is no URL is a 404, not an error thrown inside route().
      const url = requestUrl(request.url ?? '/');
      // The path only: query strings may hold a phone number.
      const pathname = url?.pathname ?? '(unreadable)';
      response.on('finish', () => log(`${request.method} ${pathname} ${response.statusCode} ${(performance.now() - started).toFixed(1)}ms`));
      route(request, response, surface, url).catch((error: unknown) => {
        if (response.headersSent) response.destroy();
        else sendError(response, error);
      });
    };
  }

  const servers: Server[] = [];
  let otpPort: number;
  let pushPort: number;
  try {
    if (options.pushPort === undefined) {
      servers.push(createServer(handler('both')));
      otpPort = pushPort = await listen(servers[0] as Server, options.port ?? 0);
    } else {
      servers.push(createServer(handler('otp')), createServer(handler('push')));
      otpPort = await listen(servers[0] as Server, options.port ?? 0);
      pushPort = await listen(servers[1] as Server, options.pushPort);
    }
  } catch (error) {
    for (const server of servers) server.close();
    await worker.close();
    otpWorker.close();
    database.close();
    throw error;
  }
  const pushUrl = `http://127.0.0.1:${pushPort}`;
  let closing: Promise<void> | undefined;

  return {
    url: pushUrl,
    otpUrl: `http://127.0.0.1:${otpPort}`,
    pushUrl,
    vapidPublicKey: vapid.publicKey,
    serverKeys: config.push.workspaces.flatMap((workspace) => workspace.serverKeys),
    otpKeys: config.otp.keys.map((key) => key.key),
    generatedKeys: generated,
    config,
    store,
    get attempts() {
      return closing ? [] : queue.attempts();
    },
    notification: (notificationId) => queue.status(notificationId),
    otpInbox: (number) => otpStore.inbox(number),
    onDeliveryRecorded(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close() {
      closing ??= (async () => {
        await Promise.all(
          servers.map(
            (server) =>
              new Promise<void>((resolve) => {
                // A client that keeps a request open does not hold shutdown for ever.
                const force = setTimeout(() => server.closeAllConnections(), 5000);
                server.close(() => {
                  clearTimeout(force);
                  resolve();
                });
                server.closeIdleConnections();
              }),
          ),
        );
        otpWorker.close();
        await worker.close();
        database.close();
      })();
      return closing;
    },
  };
}
