import { createPushClient, isPushError, type PushClient } from '../../src/index.ts';
import { callBackend, showResult } from './backend-api.ts';
import { startClickRouter } from './click-router.ts';
import { byId, element } from './dom.ts';
import { startEventLog } from './event-log.ts';
import { createInboxPanel } from './inbox-panel.ts';
import { startOtpPanel } from './otp-panel.ts';
import { startSendPanel } from './send-panel.ts';
import { renderStatus } from './status-panel.ts';

interface PageConfig {
  vapidPublicKey: string;
  emulatedOtpInbox: boolean;
  templates: string[];
  examplePhoneNumber: string;
}

const RECIPIENT_KEY = 'pushbridge-demo:recipient';
const recipient = byId<HTMLInputElement>('recipient');
const enableResult = byId<HTMLOutputElement>('enable-result');

const configAnswer = await callBackend<PageConfig>('GET', '/api/config');
if (!configAnswer.ok) {
  showResult(enableResult, 'error', `The backend is not answering: ${configAnswer.failure.message}`);
  throw new Error(configAnswer.failure.message);
}
const config = configAnswer.value;

// The demo has no sign-in: the recipient is remembered per browser, so that a reload or a second
// tab is the same user and the client's sync does not see a user switch.
recipient.value = localStorage.getItem(RECIPIENT_KEY) ?? 'demo-user';
const recipientId = (): string => recipient.value.trim() || 'demo-user';
const push: PushClient = createPushClient({
  vapidPublicKey: config.vapidPublicKey,
  serviceWorker: { url: '/pushbridge-sw.js' },
  register: { url: '/api/push/register' },
  recipientId: recipientId(),
});

function showError(error: unknown): void {
  if (isPushError(error)) {
    const advice: Partial<Record<string, string>> = {
      'permission-denied': 'Notifications are blocked for this site. Allow them in the site settings, then try again.',
      'permission-dismissed': 'The permission prompt was closed. Click Enable notifications to ask again.',
      'needs-install': 'On iPhone and iPad, add the demo to the home screen first.',
      unsupported: 'This browser has no Web Push.',
    };
    const detail = error.backendCode ? ` (${error.status ?? ''} ${error.backendCode})` : '';
    showResult(enableResult, 'error', `${error.code}: ${advice[error.code] ?? error.message}${detail}`);
  } else showResult(enableResult, 'error', String(error));
}

function useRecipient(): Promise<void> {
  localStorage.setItem(RECIPIENT_KEY, recipientId());
  return push.setRecipient(recipientId());
}

push.onStateChange(renderStatus);
void push.sync().then(renderStatus, showError);

byId<HTMLButtonElement>('enable').addEventListener('click', () => {
  // The field may not have fired 'change' yet; the id is taken at once, the prompt stays in this gesture.
  useRecipient().catch(showError);
  showResult(enableResult, 'busy', 'Asking for permission…');
  push.subscribe().then((result) => showResult(enableResult, 'ok', `Registered device ${result.deviceId}`), showError);
});

byId<HTMLButtonElement>('disable').addEventListener('click', () => {
  push.unsubscribe().then(() => showResult(enableResult, 'ok', 'Notifications are off for this browser.'), showError);
});

byId<HTMLButtonElement>('switch-user').addEventListener('click', () => {
  showResult(enableResult, 'busy', `Switching to ${recipientId()}…`);
  useRecipient().then(async () => {
    const state = await push.sync();
    showResult(enableResult, 'ok', state === 'subscribed' ? `This browser now receives ${recipientId()}'s notifications.` : `Now ${recipientId()}. Enable notifications to receive theirs.`);
  }, showError);
});

// Other tabs may switch user: follow them, so every tab shows the same recipient.
addEventListener('storage', (event) => {
  if (event.key === RECIPIENT_KEY && event.newValue !== null && event.newValue !== recipient.value) {
    recipient.value = event.newValue;
    push.setRecipient(event.newValue).catch(showError);
  }
});

const templates = byId<HTMLDataListElement>('templates');
templates.replaceChildren(...config.templates.map((id) => Object.assign(element('option'), { value: id })));

const inbox = createInboxPanel(push);
push.on('inbox', () => void inbox.refresh());
void inbox.refresh();
startEventLog(push);
startClickRouter(push, byId<HTMLUListElement>('events'));
startSendPanel(recipientId);
startOtpPanel({ emulatedInbox: config.emulatedOtpInbox, examplePhoneNumber: config.examplePhoneNumber });
