import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createBrowserKeys, decryptPush, type BrowserKeys } from './decrypt-push.ts';

/** A message the endpoint received. */
export interface ReceivedPush {
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** A push service on http loopback whose answer the test chooses; it records every request. */
export interface TestPushEndpoint {
  origin: string;
  received: ReceivedPush[];
  /** Status (and headers) of the next answers; `hang` never answers. */
  answer: (push: ReceivedPush) => { status: number; headers?: Record<string, string> } | 'hang';
  /** A subscription on this endpoint, with browser keys to decrypt with. */
  subscription(path: string): { endpoint: string; keys: BrowserKeys };
  decrypt(push: ReceivedPush, keys: BrowserKeys): unknown;
  close(): Promise<void>;
}

/** Start a {@link TestPushEndpoint} answering 201 until told otherwise. */
export async function startTestPushEndpoint(): Promise<TestPushEndpoint> {
  const hanging = new Set<import('node:http').ServerResponse>();
  const endpoint: TestPushEndpoint = {
    origin: '',
    received: [],
    answer: () => ({ status: 201 }),
    subscription: (path) => ({ endpoint: `${endpoint.origin}${path}`, keys: createBrowserKeys() }),
    decrypt: (push, keys) => JSON.parse(decryptPush(push.body, keys)) as unknown,
    close: () =>
      new Promise<void>((resolve) => {
        for (const response of hanging) response.destroy();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const push = { path: request.url ?? '/', headers: request.headers, body: Buffer.concat(chunks) };
      endpoint.received.push(push);
      const answer = endpoint.answer(push);
      if (answer === 'hang') {
        hanging.add(response);
        return;
      }
      response.writeHead(answer.status, answer.headers ?? {});
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  endpoint.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return endpoint;
}
