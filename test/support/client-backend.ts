import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import sirv from 'sirv';

/** The service a {@link ClientBackend} talks to: its address, server key and VAPID public key. */
export interface ServiceTarget {
  url: string;
  serverKey: string;
  vapidPublicKey: string;
}

/** A caller's backend for the browser package's tests, with knobs and counters. */
export interface ClientBackend {
  url: string;
  /** Every register call that reached this backend, with what it answered. */
  registerCalls: { recipientId: string; endpoint: string; status: number }[];
  /** While true, register calls fail as a backend that is down does: the connection is dropped. */
  down: boolean;
  /** When set, the next register call's endpoint is first claimed at the service for this other recipient, so the real service answers 409. */
  claimNextEndpointFor: string | null;
  /** Point the backend (its VAPID key and its calls) at another service. */
  useService(target: ServiceTarget): void;
  close(): Promise<void>;
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Serve a built test app and `pushbridge-sw.js`, hand out the VAPID key at `GET /config`, and
 * pass `POST /register` and `POST /send` on to the real local service with the server key.
 */
export async function startClientBackend(options: { appDir: string; workerDir: string; service: ServiceTarget }): Promise<ClientBackend> {
  let service = options.service;
  const app = sirv(options.appDir, { dev: true });
  const worker = sirv(options.workerDir, { dev: true });

  async function callService(path: string, body: unknown): Promise<{ status: number; text: string }> {
    const response = await fetch(`${service.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': service.serverKey },
      body: JSON.stringify(body),
    });
    return { status: response.status, text: await response.text() };
  }

  const server = createServer((request, response) => {
    const pathname = new URL(request.url ?? '/', 'http://local').pathname;
    const answer = (status: number, text: string): void => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(text);
    };
    if (pathname === '/config') return answer(200, JSON.stringify({ vapidPublicKey: service.vapidPublicKey }));
    if (pathname === '/register' && request.method === 'POST') {
      void (async () => {
        const body = JSON.parse(await readBody(request)) as { recipientId: string; webPush: { endpoint: string } };
        if (backend.down) {
          backend.registerCalls.push({ recipientId: body.recipientId, endpoint: body.webPush.endpoint, status: 0 });
          request.socket.destroy();
          return;
        }
        if (backend.claimNextEndpointFor) {
          await callService('/v1/subscribers/register', { ...body, recipientId: backend.claimNextEndpointFor });
          backend.claimNextEndpointFor = null;
        }
        const result = await callService('/v1/subscribers/register', body);
        backend.registerCalls.push({ recipientId: body.recipientId, endpoint: body.webPush.endpoint, status: result.status });
        answer(result.status, result.text);
      })().catch(() => answer(500, '{"error":"internal_error"}'));
      return;
    }
    if (pathname === '/send' && request.method === 'POST') {
      void readBody(request)
        .then((text) => callService('/v1/send', JSON.parse(text)))
        .then((result) => answer(result.status, result.text))
        .catch(() => answer(500, '{"error":"internal_error"}'));
      return;
    }
    if (pathname === '/pushbridge-sw.js') return void worker(request, response, () => answer(404, '{}'));
    app(request, response, () => answer(404, '{}'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const backend: ClientBackend = {
    url: `http://localhost:${(server.address() as AddressInfo).port}`,
    registerCalls: [],
    down: false,
    claimNextEndpointFor: null,
    useService(target) {
      service = target;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return backend;
}
