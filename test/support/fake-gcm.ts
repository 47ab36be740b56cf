import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A running fake of Google's GCM endpoints. */
export interface FakeGcm {
  /** Chromium flags that point its GCM client here. */
  args: string[];
  /** Tokens handed out, one per real `pushManager.subscribe()`. */
  tokens: string[];
  close(): Promise<void>;
}

function varint(value: bigint): Buffer {
  const out: number[] = [];
  let rest = value;
  do {
    let byte = Number(rest & 0x7fn);
    rest >>= 7n;
    if (rest) byte |= 0x80;
    out.push(byte);
  } while (rest);
  return Buffer.from(out);
}

function fixed64(tag: number, value: bigint): Buffer {
  const buffer = Buffer.alloc(9);
  buffer[0] = tag;
  buffer.writeBigUInt64LE(value, 1);
  return buffer;
}

/**
 * Answer Chromium's device check-in (a protobuf AndroidCheckinResponse) and InstanceID token
 * registration (`token=...`), so that the browser's real `pushManager.subscribe()` resolves
 * offline with a real P-256 key pair and auth secret. Nothing can be delivered to the FCM
 * endpoint it yields; tests deliver pushes over the DevTools protocol instead.
 */
export async function startFakeGcm(): Promise<FakeGcm> {
  const tokens: string[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const url = request.url ?? '';
      if (url.startsWith('/checkin')) {
        // AndroidCheckinResponse { stats_ok(1) = true, time_msec(3), android_id(7), security_token(8) }
        const body = Buffer.concat([
          Buffer.from([0x08, 0x01, 0x18]),
          varint(BigInt(Date.now())),
          fixed64(0x39, 0x1122334455667788n),
          fixed64(0x41, 0x0102030405060708n),
        ]);
        response.writeHead(200, { 'content-type': 'application/x-protobuf' });
        response.end(body);
        return;
      }
      if (url.startsWith('/c2dm/register3')) {
        const params = new URLSearchParams(Buffer.concat(chunks).toString());
        response.writeHead(200, { 'content-type': 'text/plain' });
        if (params.get('delete')) {
          response.end(`deleted=${params.get('app') ?? ''}`);
          return;
        }
        const token = `fake${randomBytes(12).toString('hex')}:${randomBytes(40).toString('base64url')}`;
        tokens.push(token);
        response.end(`token=${token}`);
        return;
      }
      response.writeHead(404);
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    args: [`--gcm-checkin-url=${url}/checkin`, `--gcm-registration-url=${url}/c2dm/register3`, '--gcm-mcs-endpoint=https://127.0.0.1:1'],
    tokens,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
