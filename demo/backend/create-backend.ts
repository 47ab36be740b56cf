import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import sirv from 'sirv';
import type { RegisterRequest } from '../../src/common/register-request.ts';
import { HttpError, readJsonObject, sendError, sendJson } from '../service/http-json.ts';
import { createNotificationClient, type SendNotificationRequest } from '../clients/notification-client.ts';
import { ServiceError } from '../clients/service-error.ts';

/** Options of {@link createBackend}. */
export interface BackendOptions {
  /** Interface B's address, `{push_base_url}`. */
  pushBaseUrl: string;
  /** Interface B server key. Stays in this process: no route ever returns it. */
  pushApiKey: string;
  /** The VAPID public key the page subscribes with. */
  vapidPublicKey: string;
  /** The built page (dist/demo). */
  pageDir: string;
  /** Directory holding the built `pushbridge-sw.js` (dist). */
  workerDir: string;
  /** Port on 127.0.0.1; 0 picks a free one. */
  port?: number;
}

/** A running example backend. */
export interface Backend {
  url: string;
  close(): Promise<void>;
}

/**
 * The example "caller's backend": serves the page and the worker, gives the page its public
 * configuration, and makes the service's register and send calls with the server key.
 *
 * @example
 * ```ts
 * const backend = await createBackend({ pushBaseUrl, pushApiKey, vapidPublicKey, pageDir: 'dist/demo', workerDir: 'dist' });
 * ```
 */
export async function createBackend(options: BackendOptions): Promise<Backend> {
  const push = createNotificationClient({ baseUrl: options.pushBaseUrl, apiKey: options.pushApiKey });
  const page = sirv(options.pageDir, { single: true, dev: false, etag: true });
  const worker = sirv(options.workerDir, { dev: false, etag: true });

  async function api(request: IncomingMessage, response: ServerResponse, pathname: string): Promise<void> {
    if (pathname === '/api/config' && request.method === 'GET') {
      sendJson(response, 200, { vapidPublicKey: options.vapidPublicKey });
      return;
    }
    if (pathname === '/api/push/register' && request.method === 'POST') {
      // A real backend takes recipientId from its session; the demo has no sign-in, so the page says who it is.
      const body = (await readJsonObject(request, 'validation_error')) as unknown as RegisterRequest;
      const result = await push.registerSubscriber(body);
      sendJson(response, result.created ? 201 : 200, { subscriberId: result.subscriberId, deviceId: result.deviceId });
      return;
    }
    if (pathname === '/api/push/send' && request.method === 'POST') {
      const body = (await readJsonObject(request, 'validation_error')) as unknown as SendNotificationRequest;
      sendJson(response, 202, await push.sendNotification(body));
      return;
    }
    throw new HttpError(404, 'not_found', 'No such route.');
  }

  const server = createServer((request, response) => {
    const pathname = new URL(request.url ?? '/', 'http://local').pathname;
    if (pathname.startsWith('/api/')) {
      api(request, response, pathname).catch((error: unknown) => {
        if (response.headersSent) response.destroy();
        else if (error instanceof ServiceError) {
          const details = error.details === undefined ? {} : { details: error.details };
          sendJson(response, error.status, { error: error.code, message: error.message, ...details });
        }
        else sendError(response, error);
      });
      return;
    }
    if (pathname === '/pushbridge-sw.js') {
      worker(request, response, () => sendJson(response, 404, { error: 'not_found', message: 'Run npm run build first.' }));
      return;
    }
    page(request, response, () => sendJson(response, 404, { error: 'not_found', message: 'No such page.' }));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://localhost:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
