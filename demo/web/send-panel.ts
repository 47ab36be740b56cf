import { callBackend, describeFailure, showResult } from './backend-api.ts';
import { byId } from './dom.ts';

/**
 * The send form: posts title, body, URL path, channel, template and the Android fields to the
 * backend's `/api/push/send`, which calls the service with its server key. Shows the queued
 * notification id, or the service's refusal (404 template, 429 with the wait, ...) plainly.
 */
export function startSendPanel(recipientId: () => string): void {
  const form = byId<HTMLFormElement>('send');
  const result = byId<HTMLOutputElement>('send-result');
  const submit = form.querySelector<HTMLButtonElement>('button[type=submit]');
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const fields = new FormData(form);
    const text = (name: string): string => String(fields.get(name) ?? '');
    showResult(result, 'busy', 'Sending…');
    if (submit) submit.disabled = true;
    void callBackend<{ notificationId: string }>('POST', '/api/push/send', {
      recipientId: recipientId(),
      channel: text('channel') || 'push',
      title: text('title'),
      body: text('body'),
      url: text('url'),
      templateId: text('templateId'),
      androidChannelId: text('androidChannelId'),
      androidSound: text('androidSound'),
    }).then((answer) => {
      if (submit) submit.disabled = false;
      if (answer.ok) {
        result.dataset.notificationId = answer.value.notificationId;
        showResult(result, 'ok', `Queued ${answer.value.notificationId}`);
      } else {
        delete result.dataset.notificationId;
        showResult(result, 'error', describeFailure(answer.failure));
      }
    });
  });
}
