import { expect, test } from './fixtures.ts';

// Nothing stubbed: Firefox's own subscribe() through the local push service, the backend's
// register and send calls, the service's aes128gcm encryption and VAPID signature, Firefox's
// decryption and the worker's notification.
test('subscribe, register, send: Firefox shows the notification with title, body and data.url', async ({ firefoxContext, demo, pushService }) => {
  const page = await firefoxContext.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(demo.url);
  const recipient = `firefox-${test.info().testId}`;
  await page.getByLabel('Recipient').fill(recipient);
  await page.getByRole('button', { name: 'Enable notifications' }).click();
  await expect(page.locator('#state')).toHaveText('subscribed');

  const devices = demo.service.store.devicesOf(recipient);
  expect(devices).toHaveLength(1);
  const endpoint = await page.evaluate(async () => (await (await navigator.serviceWorker.ready).pushManager.getSubscription())?.endpoint);
  expect(devices[0]?.endpoint).toBe(endpoint);
  expect(endpoint?.startsWith(pushService.endpointOrigin)).toBe(true);

  const timings: number[] = [];
  for (let i = 1; i <= 5; i++) {
    const title = `Order ${i} shipped`;
    await page.getByLabel('Title').fill(title);
    await page.getByLabel('Body').fill(`Parcel ${i} arrives Tuesday ✓`);
    await page.getByLabel('URL path opened on click').fill(`/orders/${i}`);
    // Timed in the page, from the form's submit event to the worker's "shown" broadcast: the
    // driver's click and a locator's polling would add their own delays to the figure.
    await page.evaluate((wanted) => {
      const channel = new BroadcastChannel('pushbridge');
      const form = document.querySelector('#send');
      const submitted = new Promise<number>((resolve) => form?.addEventListener('submit', () => resolve(performance.now()), { once: true, capture: true }));
      const shown = new Promise<number>((resolve) => {
        channel.onmessage = (event: MessageEvent<{ type?: string; title?: string }>) => {
          if (event.data.type === 'notification' && event.data.title === wanted) {
            channel.close();
            resolve(performance.now());
          }
        };
      });
      (window as unknown as { elapsed: Promise<number> }).elapsed = Promise.all([submitted, shown]).then(([from, to]) => to - from);
    }, title);
    await page.getByRole('button', { name: 'Send test notification' }).click();
    const elapsed = await page.evaluate(() => (window as unknown as { elapsed: Promise<number> }).elapsed);
    timings.push(Math.round(elapsed));
    await expect(page.locator('#events li[data-type="notification"]', { hasText: title })).toHaveCount(1);
    const shown = await page.evaluate(async (wanted) => {
      const registration = await navigator.serviceWorker.ready;
      return (await registration.getNotifications()).filter((n) => n.title === wanted).map((n) => ({ body: n.body, data: n.data as unknown }));
    }, title);
    expect(shown).toEqual([{ body: `Parcel ${i} arrives Tuesday ✓`, data: { url: `/orders/${i}` } }]);
  }

  // The push service saw five VAPID-verified messages and Firefox acknowledged each as delivered.
  expect(pushService.rejections).toEqual([]);
  expect(pushService.forwarded).toHaveLength(5);
  const acks = await Promise.all(pushService.forwarded.map((message) => pushService.waitForAck(message.version)));
  expect(acks).toEqual([100, 100, 100, 100, 100]);
  // The service records an attempt after the push service's answer, which may come after the display.
  await expect
    .poll(() => demo.service.attempts.filter((attempt) => attempt.deviceId === devices[0]?.deviceId).map((a) => a.status))
    .toEqual([201, 201, 201, 201, 201]);
  expect(errors).toEqual([]);

  const sorted = [...timings].sort((a, b) => a - b);
  test.info().annotations.push({ type: 'submit→shown ms (5 sends)', description: `${timings.join(', ')}; median ${sorted[2]}` });
});
