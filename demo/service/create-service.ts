import { randomBytes, randomUUID } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { PushEnvelope } from '../../src/common/envelope.ts';
import { matchesKey } from './api-key.ts';
import { deliverToDevice, type DeliveryAttempt } from './deliver.ts';
import { openDeviceStore, type DeviceStore } from './device-store.ts';
import { HttpError, readJsonObject, sendError, sendJson } from './http-json.ts';
import { validateRegister, validateSend } from './validate.ts';
import { loadVapidKeys, writeFileAtomic, type VapidKeys } from './vapid-keys.ts';

/** Options of {@link createService}. */
export interface ServiceOptions {
  /** Where devices and VAPID keys are kept. Created when absent. */
  dataDir: string;
  /** Port on 127.0.0.1; 0 picks a free one. */
  port?: number;
  /** Interface B server keys; by default `PUSH_API_KEY`, else a generated `sk_` key kept in the data dir. */
  serverKeys?: string[];
  /** VAPID subject; `mailto:dev@example.com` by default. */
  vapidSubject?: string;
  /** One line per request; silent by default. */
  log?: (line: string) => void;
}

/** A running local service. */
export interface Service {
  /** `{base_url}` and `{push_base_url}`: both interfaces on one address. */
  url: string;
  vapidPublicKey: string;
  /** The server keys in force (the generated dev key among them). */
  serverKeys: string[];
  /** Delivery attempts, newest last; for tests and the emulator. */
  attempts: DeliveryAttempt[];
  store: DeviceStore;
  /** Stop accepting, let queued deliveries finish, close. */
  close(): Promise<void>;
}

const TTL_SECONDS = 4 * 7 * 24 * 3600;

async function loadDevKey(dataDir: string): Promise<string> {
  const file = path.join(dataDir, 'dev-keys.json');
  try {
    const stored = JSON.parse(await fs.readFile(file, 'utf8')) as { pushServerKey?: unknown };
    if (typeof stored.pushServerKey === 'string') return stored.pushServerKey;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const key = `sk_dev_${randomBytes(18).toString('base64url')}`;
  await writeFileAtomic(file, JSON.stringify({ pushServerKey: key }), 0o600);
  return key;
}

/**
 * Start the local stand-in for the hosted service: Interface B's register and send, with real
 * Web Push delivery. Listens on 127.0.0.1 only.
 *
 * @example
 * ```ts
 * const service = await createService({ dataDir: '.pushbridge', port: 8787 });
 * console.log(service.url, service.vapidPublicKey);
 * ```
 */
export async function createService(options: ServiceOptions): Promise<Service> {
  await fs.mkdir(options.dataDir, { recursive: true });
  const vapid: VapidKeys = await loadVapidKeys(options.dataDir);
  const store = await openDeviceStore(options.dataDir);
  const envKey = process.env.PUSH_API_KEY;
  const serverKeys = options.serverKeys ?? [envKey && envKey.length > 0 ? envKey : await loadDevKey(options.dataDir)];
  const subject = options.vapidSubject ?? 'mailto:dev@example.com';
  const attempts: DeliveryAttempt[] = [];
  const inFlight = new Set<Promise<void>>();
  const log = options.log ?? (() => {});

  function requireServerKey(request: IncomingMessage): void {
    if (!matchesKey(request.headers['x-api-key'], serverKeys)) throw new HttpError(401, 'invalid_api_key', 'Invalid API key.');
  }

  function queueDelivery(recipientId: string, envelope: PushEnvelope): void {
    // Delivery runs after the 202 is sent, like the hosted service's queue.
    const work = (async () => {
      const context = { store, vapid, subject, ttlSeconds: TTL_SECONDS };
      const results = await Promise.all(store.devicesOf(recipientId).map((device) => deliverToDevice(context, device, envelope)));
      attempts.push(...results);
    })();
    inFlight.add(work);
    void work.finally(() => inFlight.delete(work));
  }

  async function route(request: IncomingMessage, response: ServerResponse, pathname: string): Promise<void> {
    if (pathname === '/v1/subscribers/register') {
      if (request.method !== 'POST') throw new HttpError(405, 'method_not_allowed', 'Use POST.');
      requireServerKey(request);
      const input = validateRegister(await readJsonObject(request, 'validation_error'));
      const outcome = await store.register({
        recipientId: input.recipientId,
        endpoint: input.endpoint,
        p256dh: input.p256dh,
        auth: input.auth,
        metadata: input.metadata,
      });
      if (outcome.kind === 'conflict') {
        throw new HttpError(409, 'subscription_conflict', 'The subscription is registered to another recipient.');
      }
      const created = outcome.kind === 'created';
      sendJson(response, created ? 201 : 200, {
        subscriberId: outcome.subscriberId,
        deviceId: outcome.deviceId,
        message: created ? 'registered' : 'updated',
      });
      return;
    }
    if (pathname === '/v1/send') {
      if (request.method !== 'POST') throw new HttpError(405, 'method_not_allowed', 'Use POST.');
      requireServerKey(request);
      const input = validateSend(await readJsonObject(request, 'validation_error'));
      if (input.templateId !== undefined) throw new HttpError(404, 'template_not_found', 'Template not found.');
      if (!store.hasRecipient(input.recipientId)) throw new HttpError(404, 'recipient_not_found', 'Recipient not found.');
      const notificationId = randomUUID();
      const envelope: PushEnvelope = {
        pushbridge: 1,
        notificationId,
        channel: input.channel,
        title: input.title ?? '',
        body: input.body ?? '',
        data: input.data,
      };
      if (input.androidChannelId !== undefined || input.androidSound !== undefined) {
        envelope.android = {
          ...(input.androidChannelId === undefined ? {} : { channelId: input.androidChannelId }),
          ...(input.androidSound === undefined ? {} : { sound: input.androidSound }),
        };
      }
      queueDelivery(input.recipientId, envelope);
      sendJson(response, 202, { notificationId, status: 'queued' });
      return;
    }
    if (pathname === '/_emulator/vapid-public-key') {
      if (request.method !== 'GET') throw new HttpError(405, 'method_not_allowed', 'Use GET.');
      sendJson(response, 200, { publicKey: vapid.publicKey });
      return;
    }
    throw new HttpError(404, 'not_found', 'No such route.');
  }

  const server = createServer((request, response) => {
    const started = performance.now();
    const pathname = new URL(request.url ?? '/', 'http://local').pathname;
    response.on('finish', () => {
      log(`${request.method} ${pathname} ${response.statusCode} ${(performance.now() - started).toFixed(1)}ms`);
    });
    route(request, response, pathname).catch((error: unknown) => {
      if (!response.headersSent) sendError(response, error);
      else response.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    vapidPublicKey: vapid.publicKey,
    serverKeys,
    attempts,
    store,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      await Promise.allSettled([...inFlight]);
    },
  };
}
