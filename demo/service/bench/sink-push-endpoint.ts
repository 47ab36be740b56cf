import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A push service on loopback that accepts every message with 201 and counts them. */
export interface SinkPushEndpoint {
  origin: string;
  received(): number;
  close(): Promise<void>;
}

/** Start a {@link SinkPushEndpoint}. */
export async function startSinkPushEndpoint(): Promise<SinkPushEndpoint> {
  let count = 0;
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      count += 1;
      response.writeHead(201);
      response.end();
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received: () => count,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
