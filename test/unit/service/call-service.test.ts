import { describe, expect, it } from 'vitest';
import { createNotificationClient } from '../../../demo/clients/index.ts';
import { createBrowserKeys } from '../../support/decrypt-push.ts';

/** A fetch that answers from a script and records the URLs it was asked; sleeping moves a fake clock. */
function scripted(answers: Response[]) {
  let now = 0;
  const urls: string[] = [];
  return {
    urls,
    now: () => now,
    sleep: async (ms: number) => void (now += ms),
    random: () => 0,
    retryBaseMs: 10,
    fetch: (async (url: URL | string) => {
      urls.push(String(url));
      const next = answers.shift();
      if (!next) throw new Error('no more answers');
      return next;
    }) as unknown as typeof fetch,
  };
}
const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
const queued = () => json(202, { notificationId: 'n1', status: 'queued' });
const SEND = { recipientId: 'r', title: 't', body: 'b' };

describe('callService', () => {
  it.each(['https://api.example.com/push', 'https://api.example.com/push/', 'https://api.example.com/push//'])(
    'keeps the path of the base URL %s: {push_base_url}/v1/...',
    async (baseUrl) => {
      const script = scripted([queued()]);
      await createNotificationClient({ baseUrl, apiKey: 'sk', ...script }).sendNotification(SEND);
      expect(script.urls).toEqual(['https://api.example.com/push/v1/send']);
    },
  );

  it.each([500, 502, 503, 504])('does not send again after a %i without Retry-After: the service may have queued it', async (status) => {
    const script = scripted([json(status, { error: 'internal_error', message: 'x' }), queued()]);
    await expect(createNotificationClient({ baseUrl: 'http://push.test', apiKey: 'sk', ...script }).sendNotification(SEND)).rejects.toMatchObject({ status });
    expect(script.urls).toHaveLength(1);
  });

  it('sends again after a 429, and after a 503 with Retry-After (refused before queueing)', async () => {
    const script = scripted([json(429, { error: 'rate_limited', message: 'x', retryAfter: 1 }, { 'retry-after': '1' }), json(503, {}, { 'retry-after': '2' }), queued()]);
    expect(await createNotificationClient({ baseUrl: 'http://push.test', apiKey: 'sk', ...script }).sendNotification(SEND)).toEqual({ notificationId: 'n1', status: 'queued' });
    expect(script.urls).toHaveLength(3);
  });

  it('retries register, which is idempotent, after any 5xx', async () => {
    const script = scripted([json(502, {}), json(504, {}), json(500, {}), json(201, { subscriberId: 's', deviceId: 'd', message: 'registered' })]);
    const client = createNotificationClient({ baseUrl: 'http://push.test', apiKey: 'sk', ...script });
    const request = { recipientId: 'r', platform: 'web', deviceTransport: 'web_push', webPush: { endpoint: 'https://p/1', keys: createBrowserKeys() }, metadata: {} } as const;
    expect(await client.registerSubscriber(request)).toEqual({ subscriberId: 's', deviceId: 'd', created: true });
    expect(script.urls).toHaveLength(4);
  });
});
