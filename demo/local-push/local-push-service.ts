import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { verifyVapid } from './verify-vapid.ts';

/** One message the endpoint side accepted and forwarded (or queued) to the browser. */
export interface ForwardedMessage {
  channelID: string;
  version: string;
  receivedAt: number;
  /** Firefox's ack code once it acknowledged: 100 delivered, 101 decryption failed, 102 not delivered. */
  ackCode: number | null;
}

/** A running local push service. */
export interface LocalPushService {
  /** `dom.push.serverURL` for Firefox. */
  websocketUrl: string;
  /** Origin of the push endpoints it hands out. */
  endpointOrigin: string;
  /** Messages accepted on the endpoint side, oldest first. */
  forwarded: ForwardedMessage[];
  /** Answers on the endpoint side, for assertions: status and reason. */
  rejections: { status: number; why: string }[];
  /** Channels currently subscribed. */
  channels(): string[];
  /**
   * Answer Firefox's next `hello` with a new uaid, as a push service that lost its state would:
   * Firefox drops every subscription and fires `pushsubscriptionchange`; the old endpoints
   * answer 410. Drops the connection so that Firefox says hello again at once.
   */
  rotateUaid(): void;
  /** Resolve with the ack of a forwarded message. */
  waitForAck(version: string): Promise<number>;
  /** Close everything. */
  close(): Promise<void>;
}

/** Options of {@link startLocalPushService}. */
export interface LocalPushServiceOptions {
  /** Port on 127.0.0.1; 0 (a free one) by default. A fixed port lets a browser profile keep its `dom.push.serverURL`. */
  port?: number;
}

interface Channel {
  key: string | null;
  uaid: string;
}

/**
 * A push service for Firefox on loopback: Mozilla's WebSocket protocol towards the browser
 * (hello, register, unregister, notification, ack) and RFC 8030 towards application servers
 * (`POST /wpush/v1/<channelID>`, VAPID checked, 201 with Location). Messages are relayed still
 * encrypted: Firefox decrypts them itself.
 */
export async function startLocalPushService(options: LocalPushServiceOptions = {}): Promise<LocalPushService> {
  const channels = new Map<string, Channel>();
  const forwarded: ForwardedMessage[] = [];
  const rejections: { status: number; why: string }[] = [];
  const queued: Record<string, unknown>[] = [];
  const ackWaiters = new Map<string, (code: number) => void>();
  let socket: WebSocket | null = null;
  let uaid: string | null = null;
  let rotateOnHello = false;

  const server = createServer((request, response) => {
    void handleEndpoint(request, response);
  });
  const websockets = new WebSocketServer({
    server,
    // Firefox asks for this subprotocol and drops the connection unless it is echoed.
    handleProtocols: (protocols) => (protocols.has('push-notification') ? 'push-notification' : false),
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const endpointOrigin = `http://127.0.0.1:${port}`;

  function send(ws: WebSocket, message: Record<string, unknown>): void {
    ws.send(JSON.stringify(message));
  }

  function forward(message: Record<string, unknown>): void {
    if (socket && socket.readyState === socket.OPEN) send(socket, message);
    else queued.push(message);
  }

  websockets.on('connection', (ws) => {
    socket?.terminate();
    socket = ws;
    ws.on('close', () => {
      if (socket === ws) socket = null;
    });
    ws.on('message', (raw) => {
      let message: Record<string, unknown>;
      try {
        message = JSON.parse(String(raw)) as Record<string, unknown>;
      } catch {
        return;
      }
      switch (message.messageType) {
        case undefined:
          send(ws, {}); // ping
          break;
        case 'hello': {
          const offered = typeof message.uaid === 'string' && message.uaid.length > 0 ? message.uaid : null;
          uaid = offered && !rotateOnHello ? offered : randomUUID().replace(/-/g, '');
          if (offered && offered !== uaid) for (const [id, channel] of channels) if (channel.uaid === offered) channels.delete(id);
          rotateOnHello = false;
          send(ws, { messageType: 'hello', status: 200, uaid, use_webpush: true, broadcasts: {} });
          for (const pending of queued.splice(0)) forward(pending);
          break;
        }
        case 'register': {
          const channelID = String(message.channelID);
          channels.set(channelID, { key: typeof message.key === 'string' ? message.key : null, uaid: uaid ?? '' });
          send(ws, { messageType: 'register', channelID, status: 200, pushEndpoint: `${endpointOrigin}/wpush/v1/${channelID}` });
          break;
        }
        case 'unregister': {
          const channelID = String(message.channelID);
          channels.delete(channelID);
          send(ws, { messageType: 'unregister', channelID, status: 200 });
          break;
        }
        case 'ack': {
          for (const update of (message.updates as { version: string; code: number }[] | undefined) ?? []) {
            const entry = forwarded.find((item) => item.version === update.version);
            if (entry) entry.ackCode = update.code;
            ackWaiters.get(update.version)?.(update.code);
            ackWaiters.delete(update.version);
          }
          break;
        }
        default:
          break;
      }
    });
  });

  function reject(response: ServerResponse, status: number, why: string): void {
    rejections.push({ status, why });
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ code: status, error: why }));
  }

  async function handleEndpoint(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const match = /^\/wpush\/v1\/([0-9a-f-]{36})$/i.exec(new URL(request.url ?? '/', endpointOrigin).pathname);
    if (request.method !== 'POST' || !match?.[1]) return reject(response, 404, 'not an endpoint');
    const chunks: Buffer[] = [];
    for await (const chunk of request as AsyncIterable<Buffer>) chunks.push(chunk);
    const body = Buffer.concat(chunks);
    const channelID = match[1];
    const channel = channels.get(channelID);
    if (!channel) return reject(response, 410, 'unknown or expired subscription');
    const vapid = verifyVapid(request.headers.authorization, channel.key, endpointOrigin);
    if (!vapid.ok) return reject(response, 401, vapid.why);
    if (body.length > 4096) return reject(response, 413, 'payload over 4096 bytes');
    const encoding = String(request.headers['content-encoding'] ?? '').toLowerCase();
    if (body.length > 0 && encoding !== 'aes128gcm') return reject(response, 415, `content-encoding ${encoding}`);
    if (request.headers.ttl === undefined) return reject(response, 400, 'TTL header missing');
    const version = randomUUID().replace(/-/g, '');
    forwarded.push({ channelID, version, receivedAt: Date.now(), ackCode: null });
    forward({
      messageType: 'notification',
      channelID,
      version,
      ...(body.length > 0 ? { data: body.toString('base64url'), headers: { encoding: 'aes128gcm' } } : {}),
    });
    response.writeHead(201, { location: `${endpointOrigin}/m/${version}`, ttl: String(request.headers.ttl) });
    response.end();
  }

  return {
    websocketUrl: `ws://127.0.0.1:${port}/`,
    endpointOrigin,
    forwarded,
    rejections,
    channels: () => [...channels.keys()],
    rotateUaid() {
      rotateOnHello = true;
      // Terminate, never close: Firefox leaves a cleanly closed socket half-open.
      socket?.terminate();
    },
    waitForAck(version) {
      const known = forwarded.find((item) => item.version === version)?.ackCode;
      if (known !== null && known !== undefined) return Promise.resolve(known);
      return new Promise((resolve) => ackWaiters.set(version, resolve));
    },
    async close() {
      // Terminate rather than close: Firefox never answers a clean close from the server.
      for (const client of websockets.clients) client.terminate();
      websockets.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
