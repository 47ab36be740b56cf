import { expect, test } from './fixtures.ts';

type AppWindow = { app: { client: import('../../src/index.ts').PushClient } };

// Real delivery (Firefox): after a user switch, the old user's notifications never reach this
// browser, and the new user's do.
test('after setRecipient, a send to the old user is refused by the push service and the new user receives', async ({
  browserContext,
  clientBackend,
  service,
  pushService,
}) => {
  const page = await browserContext.newPage();
  await page.goto(`${clientBackend.url}/?recipient=alice`);
  await page.getByRole('button', { name: 'Enable notifications' }).click();
  await expect(page.locator('#state')).toHaveText('subscribed');
  const [alicesDevice] = service.store.devicesOf('alice');
  await page.evaluate(() => (window as unknown as AppWindow).app.client.setRecipient('bob'));
  await expect(page.locator('#state')).toHaveText('subscribed');

  const shown = page.evaluate(
    () =>
      new Promise<string>((resolve) => {
        const channel = new BroadcastChannel('pushbridge');
        channel.onmessage = (event: MessageEvent<{ type?: string; title?: string }>) => {
          if (event.data.type === 'notification') resolve(event.data.title ?? '');
        };
      }),
  );
  const send = (recipientId: string, title: string) =>
    fetch(`${clientBackend.url}/send`, { method: 'POST', body: JSON.stringify({ recipientId, title, body: 'x' }) }).then((r) => r.status);
  expect(await send('alice', 'for alice')).toBe(202);
  // The push service no longer knows alice's channel: it answers 410 and the service forgets the device.
  await expect.poll(() => service.store.devicesOf('alice').length).toBe(0);
  expect(service.attempts.find((attempt) => attempt.deviceId === alicesDevice?.deviceId)?.status).toBe(410);
  expect(pushService.rejections.map((rejection) => rejection.status)).toEqual([410]);

  expect(await send('bob', 'for bob')).toBe(202);
  expect(await shown).toBe('for bob');
});
