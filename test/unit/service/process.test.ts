import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestPushEndpoint, type TestPushEndpoint } from '../../support/test-push-endpoint.ts';
import { get, post, temporaryDataDir } from './http-call.ts';
import { startServiceProcess, type ServiceProcess } from './service-process.ts';

const KEY = 'sk_process';
let cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups = [];
});

function track(service: ServiceProcess): ServiceProcess {
  cleanups.push(async () => {
    if (service.child.exitCode === null && service.child.signalCode === null) {
      service.child.kill('SIGKILL');
      await service.exited;
    }
  });
  return service;
}

async function setup() {
  const dataDir = temporaryDataDir();
  const endpoint = await startTestPushEndpoint();
  cleanups.push(async () => {
    await endpoint.close();
    dataDir.remove();
  });
  const configFile = path.join(dataDir.dir, 'service.json');
  writeFileSync(configFile, JSON.stringify({ push: { workspaces: [{ id: 'w', serverKeys: [KEY] }] }, vapid: { subject: 'mailto:test@example.com' } }));
  const args = ['--data-dir', path.join(dataDir.dir, 'data'), '--config', configFile];
  return { endpoint, args };
}

async function register(url: string, endpoint: TestPushEndpoint) {
  const subscription = endpoint.subscription('/push/device');
  const body = { recipientId: 'kim', platform: 'web', deviceTransport: 'web_push', webPush: { endpoint: subscription.endpoint, keys: { p256dh: subscription.keys.p256dh, auth: subscription.keys.auth } } };
  return { subscription, body, answer: await post(`${url}/v1/subscribers/register`, body, { 'x-api-key': KEY }) };
}

describe('the service process', () => {
  it('delivers after restart what it accepted right before a SIGKILL, and keeps devices and VAPID keys', async () => {
    const { endpoint, args } = await setup();
    endpoint.answer = () => 'hang';
    const first = track(await startServiceProcess(args));
    const vapidBefore = (await get(`${first.url}/_emulator/vapid-public-key`)).json.publicKey;
    const { subscription, body, answer } = await register(first.url, endpoint);
    expect(answer.status).toBe(201);
    const sent = await post(`${first.url}/v1/send`, { recipientId: 'kim', title: 'Survives', body: 'kill -9' }, { 'x-api-key': KEY });
    expect(sent.status).toBe(202);
    first.child.kill('SIGKILL');
    expect(await first.exited).toBe('SIGKILL');

    endpoint.answer = () => ({ status: 201 });
    const second = track(await startServiceProcess(args));
    const delivered = async () => endpoint.received.filter((push) => {
      try {
        return (endpoint.decrypt(push, subscription.keys) as { notificationId?: unknown }).notificationId === sent.json.notificationId;
      } catch {
        return false;
      }
    }).length;
    await expect.poll(delivered, { timeout: 10_000 }).toBeGreaterThanOrEqual(1);
    await expect.poll(async () => (await get(`${second.url}/_emulator/notifications/${String(sent.json.notificationId)}`)).json.state, { timeout: 10_000 }).toBe('delivered');
    expect((await get(`${second.url}/_emulator/vapid-public-key`)).json.publicKey).toBe(vapidBefore);
    const again = await post(`${second.url}/v1/subscribers/register`, body, { 'x-api-key': KEY });
    expect(again).toMatchObject({ status: 200, json: { deviceId: answer.json.deviceId } });
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  }, 40_000);

  it('prints each interface, the VAPID key, generated dev keys and ready; SIGTERM drains and exits 0', async () => {
    const dataDir = temporaryDataDir();
    cleanups.push(() => dataDir.remove());
    const service = track(await startServiceProcess(['--data-dir', dataDir.dir, '--push-port', '0'], { OTP_API_KEY: '', PUSH_API_KEY: '', PUSH_CLIENT_KEY: '' }));
    const text = service.output.join('\n');
    expect(text).toMatch(/^Interface A \(OTP\)\s+http:\/\/127\.0\.0\.1:\d+\/api\/send-otp$/m);
    expect(text).toMatch(/^Interface B \(notifications\)\s+http:\/\/127\.0\.0\.1:\d+\/v1$/m);
    expect(text).toMatch(/^VAPID public key\s+[A-Za-z0-9_-]{87}$/m);
    const otpKey = /^Dev OTP key \(apiKey\)\s+(\S+)$/m.exec(text)?.[1];
    const serverKey = /^Dev server key \(X-API-Key\)\s+(sk_\S+)$/m.exec(text)?.[1];
    expect(otpKey).toMatch(/^otp_dev_/);
    const otpUrl = /^Interface A \(OTP\)\s+(\S+)\/api\/send-otp$/m.exec(text)?.[1] as string;
    expect(otpUrl).not.toBe(service.url);
    // Each interface on its own port.
    expect((await post(`${otpUrl}/v1/send`, {}, { 'x-api-key': serverKey as string })).status).toBe(404);
    expect((await post(`${service.url}/api/send-otp`, {})).status).toBe(404);
    const otp = await post(`${otpUrl}/api/send-otp`, { apiKey: otpKey, number: '+14155552671', message: 'code 1' });
    expect(otp.status).toBe(202);
    // Request log lines carry neither key nor number.
    await expect.poll(() => service.output.some((line) => /^POST \/api\/send-otp 202 /.test(line))).toBe(true);
    expect(service.output.filter((line) => line.includes(otpKey as string))).toHaveLength(1);
    expect(service.output.join('\n')).not.toContain('4155552671');
    service.child.kill('SIGTERM');
    expect(await service.exited).toBe(0);
  }, 30_000);

  it('does not print keys it was given', async () => {
    const dataDir = temporaryDataDir();
    cleanups.push(() => dataDir.remove());
    const service = track(await startServiceProcess(['--data-dir', dataDir.dir], { OTP_API_KEY: 'otp_given_123', PUSH_API_KEY: 'sk_given_456' }));
    expect(service.output.join('\n')).not.toMatch(/given_/);
    expect((await post(`${service.url}/v1/send`, { recipientId: 'x', title: 't', body: 'b' }, { 'x-api-key': 'sk_given_456' })).json.error).toBe('recipient_not_found');
    service.child.kill('SIGINT');
    expect(await service.exited).toBe(0);
  }, 30_000);
});
