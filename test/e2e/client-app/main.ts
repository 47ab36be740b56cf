// The browser package as an app would use it, with hooks for the end-to-end tests: the client
// is on `window.app`, every state it reports is kept in `window.app.states`.
import { createPushClient, isPushError, type PushClient, type PushState, type UnregisteredDevice } from '../../../src/index.ts';

interface TestApp {
  client: PushClient;
  createPushClient: typeof createPushClient;
  vapidPublicKey: string;
  states: PushState[];
  unregistered: UnregisteredDevice[];
}

const config = (await (await fetch('/config')).json()) as { vapidPublicKey: string };
const recipientId = new URL(location.href).searchParams.get('recipient') ?? 'test-user';
const unregistered: UnregisteredDevice[] = [];
const client = createPushClient({
  vapidPublicKey: config.vapidPublicKey,
  serviceWorker: { url: '/pushbridge-sw.js' },
  register: { url: '/register' },
  recipientId,
  onUnregister: (device) => void unregistered.push(device),
});
const states: PushState[] = [];
const stateOutput = document.getElementById('state') as HTMLOutputElement;
client.onStateChange((state) => {
  states.push(state);
  stateOutput.value = state;
});
const result = document.getElementById('result') as HTMLOutputElement;
document.getElementById('enable')?.addEventListener('click', () => {
  client.subscribe().then(
    (ids) => {
      result.value = `registered ${ids.deviceId}`;
    },
    (error: unknown) => {
      result.value = isPushError(error) ? `error ${error.code}` : `error ${String(error)}`;
    },
  );
});
(window as unknown as { app: TestApp }).app = { client, createPushClient, vapidPublicKey: config.vapidPublicKey, states, unregistered };
