// `npm run bench:service`: a bounded load test of the local service on loopback. It measures
// B2 (POST /v1/send) at 50 concurrent clients, then delivery throughput to a local push endpoint
// for recipients with 1, 100 and 10,000 devices. Each phase stops at a count or a time bound.
import { createECDH, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createService, type Service } from '../create-service.ts';
import { percentile } from './percentile.ts';
import { startSinkPushEndpoint, type SinkPushEndpoint } from './sink-push-endpoint.ts';

const KEY = 'sk_bench';
const CONCURRENCY = 50;
const PHASE_LIMIT_MS = 60_000;

function browserKeys(): { p256dh: string; auth: string } {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return { p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') };
}

async function withService<T>(run: (service: Service, sink: SinkPushEndpoint) => Promise<T>): Promise<T> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'pushbridge-bench-'));
  const sink = await startSinkPushEndpoint();
  const service = await createService({
    dataDir,
    config: { push: { workspaces: [{ id: 'bench', serverKeys: [KEY], rateLimitPerMinute: 10_000_000 }] } },
  });
  try {
    return await run(service, sink);
  } finally {
    await service.close();
    await sink.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function registerDevices(service: Service, sink: SinkPushEndpoint, recipientId: string, count: number): void {
  // Straight into the store: this phase measures delivery, not registration.
  for (let i = 0; i < count; i += 1) {
    const keys = browserKeys();
    service.store.register({ workspace: 'bench', recipientId, endpoint: `${sink.origin}/push/${recipientId}/${i}`, p256dh: keys.p256dh, auth: keys.auth, metadata: {} });
  }
}

/** Send `total` notifications from 50 concurrent clients; latencies in ms. */
async function sendMany(service: Service, recipientId: string, total: number, deadline: number): Promise<{ accepted: number; latencies: number[]; ms: number }> {
  let next = 0;
  let accepted = 0;
  const latencies: number[] = [];
  const body = JSON.stringify({ recipientId, title: 'Bench', body: 'Load test', data: { url: '/bench' } });
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < total && Date.now() < deadline) {
        next += 1;
        const t0 = performance.now();
        const response = await fetch(`${service.url}/v1/send`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': KEY }, body });
        await response.arrayBuffer();
        latencies.push(performance.now() - t0);
        if (response.status === 202) accepted += 1;
      }
    }),
  );
  return { accepted, latencies, ms: performance.now() - started };
}

async function benchSend(): Promise<void> {
  await withService(async (service, sink) => {
    registerDevices(service, sink, 'load', 1);
    await sendMany(service, 'load', 200, Date.now() + 10_000); // warm-up
    const { accepted, latencies, ms } = await sendMany(service, 'load', 5000, Date.now() + PHASE_LIMIT_MS);
    console.log(
      `B2 POST /v1/send, ${CONCURRENCY} clients: ${accepted} accepted in ${(ms / 1000).toFixed(2)} s = ${Math.round(accepted / (ms / 1000))} req/s; ` +
        `p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms (deliveries running alongside)`,
    );
  });
}

async function benchDelivery(devices: number, notifications: number): Promise<void> {
  await withService(async (service, sink) => {
    registerDevices(service, sink, 'fan', devices);
    const expected = devices * notifications;
    let delivered = 0;
    let failed = 0;
    let done: () => void = () => {};
    const finished = new Promise<void>((resolve) => (done = resolve));
    service.onDeliveryRecorded((outcomes) => {
      for (const outcome of outcomes) {
        if (outcome.state === 'delivered') delivered += 1;
        else if (outcome.state !== 'pending') failed += 1;
      }
      if (delivered + failed >= expected) done();
    });
    const started = performance.now();
    const deadline = Date.now() + PHASE_LIMIT_MS;
    const sent = await sendMany(service, 'fan', notifications, deadline);
    const timer = setTimeout(done, Math.max(0, deadline - Date.now()));
    await finished;
    clearTimeout(timer);
    const seconds = (performance.now() - started) / 1000;
    console.log(
      `delivery, ${String(devices).padStart(5)} device(s) x ${String(sent.accepted).padStart(4)} notification(s): ` +
        `${delivered}/${expected} delivered (${failed} failed, push endpoint saw ${sink.received()}) in ${seconds.toFixed(2)} s = ${Math.round(delivered / seconds)} deliveries/s`,
    );
  });
}

console.log(`pushbridge local service bench (loopback, one process; ${new Date().toISOString()})`);
await benchSend();
await benchDelivery(1, 2000);
await benchDelivery(100, 40);
await benchDelivery(10_000, 1);
