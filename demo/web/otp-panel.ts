import { callBackend, describeFailure, showResult } from './backend-api.ts';
import { byId, element } from './dom.ts';

interface InboxAnswer {
  messages: { text: string; at: string }[];
}

const POLL_MS = 400;
const POLL_TRIES = 25;

/**
 * Phone verification through the backend: "Send code" asks it to make a code and send it with
 * Interface A; "Verify" checks the code. With the local service, the "Emulated messaging app"
 * shows what the service delivered to the number (delivery is asynchronous, so it polls for a
 * bounded while after each send).
 */
export function startOtpPanel(options: { emulatedInbox: boolean; examplePhoneNumber: string }): void {
  const phone = byId<HTMLInputElement>('phone');
  const code = byId<HTMLInputElement>('code');
  const result = byId<HTMLOutputElement>('otp-result');
  const messages = byId<HTMLUListElement>('otp-messages');
  phone.placeholder = options.examplePhoneNumber;
  byId('phone-help').textContent = `International form with the country code, for example ${options.examplePhoneNumber}.`;
  if (!options.emulatedInbox) {
    byId('phone-app-note').textContent = 'The hosted service sends codes to the real messaging app of that number.';
  }
  let polling = 0;

  async function showInbox(number: string, known: number, generation: number): Promise<void> {
    for (let attempt = 0; attempt < POLL_TRIES && generation === polling; attempt += 1) {
      const answer = await callBackend<InboxAnswer>('GET', `/api/otp/messages?number=${encodeURIComponent(number)}`);
      if (generation !== polling) return;
      if (answer.ok) {
        messages.replaceChildren(...answer.value.messages.map((message) => {
          const item = element('li');
          item.append(element('span', message.text), element('br'), element('small', new Date(message.at).toLocaleTimeString()));
          return item;
        }));
        if (answer.value.messages.length > known) return;
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }

  byId<HTMLFormElement>('otp-send').addEventListener('submit', (event) => {
    event.preventDefault();
    showResult(result, 'busy', 'Sending a code…');
    const known = messages.children.length;
    void callBackend<{ number: string }>('POST', '/api/otp/send', { number: phone.value }).then((answer) => {
      if (!answer.ok) {
        showResult(result, 'error', answer.failure.message);
        result.title = describeFailure(answer.failure);
        return;
      }
      showResult(result, 'ok', `Code sent to ${answer.value.number}. It is valid for 5 minutes.`);
      code.focus();
      if (options.emulatedInbox) void showInbox(answer.value.number, known, (polling += 1));
    });
  });

  byId<HTMLFormElement>('otp-verify').addEventListener('submit', (event) => {
    event.preventDefault();
    showResult(result, 'busy', 'Checking…');
    void callBackend<{ number: string }>('POST', '/api/otp/verify', { number: phone.value, code: code.value }).then((answer) => {
      if (answer.ok) showResult(result, 'ok', `Verified ${answer.value.number}.`);
      else showResult(result, 'error', answer.failure.message);
    });
  });
}
