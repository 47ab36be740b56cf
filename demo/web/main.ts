import { CHANNEL_NAME, createPushClient, isPushbridgeMessage, isPushError, type PushClient } from '../../src/index.ts';

const byId = <T extends HTMLElement>(id: string): T => {
  const element = document.getElementById(id);
  if (!element) throw new Error(`#${id} is missing from the page`);
  return element as T;
};

const recipient = byId<HTMLInputElement>('recipient');
const stateOutput = byId<HTMLOutputElement>('state');
const enableResult = byId<HTMLOutputElement>('enable-result');
const sendResult = byId<HTMLOutputElement>('send-result');
const events = byId<HTMLUListElement>('events');

const config = (await (await fetch('/api/config')).json()) as { vapidPublicKey: string };

const recipientId = (): string => recipient.value.trim() || 'demo-user';
const push: PushClient = createPushClient({
  vapidPublicKey: config.vapidPublicKey,
  serviceWorker: { url: '/pushbridge-sw.js' },
  register: { url: '/api/push/register' },
  recipientId: recipientId(),
});
push.onStateChange((state) => {
  stateOutput.value = state;
});

function showError(error: unknown): void {
  const cause = error instanceof Error && error.cause !== undefined ? ` (${String(error.cause)})` : '';
  enableResult.value = isPushError(error) ? `${error.code}: ${error.message}${cause}` : String(error);
}

byId<HTMLButtonElement>('enable').addEventListener('click', () => {
  // The field may not have fired 'change' yet; the id is taken at once, the prompt stays in this gesture.
  push.setRecipient(recipientId()).catch(showError);
  push.subscribe().then((result) => {
    enableResult.value = `Registered device ${result.deviceId}`;
  }, showError);
});

byId<HTMLFormElement>('send').addEventListener('submit', (event) => {
  event.preventDefault();
  const form = new FormData(event.target as HTMLFormElement);
  sendResult.value = 'Sending…';
  fetch('/api/push/send', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      recipientId: recipientId(),
      title: form.get('title'),
      body: form.get('body'),
      data: { url: String(form.get('url') || '/') },
    }),
  })
    .then(async (response) => {
      const answer = (await response.json()) as { notificationId?: string; error?: string; message?: string };
      sendResult.value = response.ok ? `Queued ${answer.notificationId}` : `${response.status} ${answer.error}: ${answer.message}`;
    })
    .catch((error: unknown) => {
      sendResult.value = `Could not reach the backend: ${String(error)}`;
    });
});

new BroadcastChannel(CHANNEL_NAME).addEventListener('message', (event: MessageEvent<unknown>) => {
  if (!isPushbridgeMessage(event.data)) return;
  if (event.data.type !== 'notification' && event.data.type !== 'click') return;
  const item = document.createElement('li');
  item.textContent = event.data.type === 'notification' ? `shown: ${event.data.title}` : `clicked: ${event.data.url}`;
  item.dataset.type = event.data.type;
  events.prepend(item);
});

recipient.addEventListener('change', () => {
  push.setRecipient(recipientId()).catch(showError);
});
