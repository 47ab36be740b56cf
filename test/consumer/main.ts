// An app that installed the packed tarball: it imports `pushbridge` by its package name only.
import { CHANNEL_NAME, createPushClient, isPushbridgeMessage, isPushError, type PushState } from 'pushbridge';

const worker = new URL(location.href).searchParams.get('worker') === 'classic' ? '/classic-sw.js' : '/sw.js';
const config = (await (await fetch('/config')).json()) as { vapidPublicKey: string };
const push = createPushClient({
  vapidPublicKey: config.vapidPublicKey,
  serviceWorker: { url: worker },
  register: { url: '/register' },
  recipientId: 'consumer',
});
const state = document.getElementById('state') as HTMLOutputElement;
push.onStateChange((next: PushState) => {
  state.value = next;
});
const result = document.getElementById('result') as HTMLOutputElement;
document.getElementById('enable')?.addEventListener('click', () => {
  push.subscribe().then(
    ({ deviceId }) => {
      result.value = `registered ${deviceId}`;
    },
    (error: unknown) => {
      result.value = isPushError(error) ? `error ${error.code}` : String(error);
    },
  );
});
new BroadcastChannel(CHANNEL_NAME).addEventListener('message', (event: MessageEvent<unknown>) => {
  if (!isPushbridgeMessage(event.data) || event.data.type !== 'notification') return;
  const item = document.createElement('li');
  item.textContent = event.data.title;
  document.getElementById('shown')?.append(item);
});
