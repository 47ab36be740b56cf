// `npm run service -- --port 8787 --data-dir .pushbridge [--config service.json] [--push-port 8788]`:
// the local service on its own (decisions.md, "Local service: how it starts and what it reads").
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { createService } from './create-service.ts';

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '8787' },
    'push-port': { type: 'string' },
    'data-dir': { type: 'string', default: '.pushbridge' },
    config: { type: 'string' },
  },
});

function port(name: string, text: string): number {
  const value = Number(text);
  if (!/^\d+$/.test(text) || value > 65535) fail(`--${name} must be a port number, not ${text}`);
  return value;
}

let config: unknown;
if (values.config !== undefined) {
  try {
    config = JSON.parse(readFileSync(values.config, 'utf8'));
  } catch (error) {
    fail(`--config ${values.config}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

let service;
try {
  service = await createService({
    dataDir: values['data-dir'],
    port: port('port', values.port),
    ...(values['push-port'] === undefined ? {} : { pushPort: port('push-port', values['push-port']) }),
    ...(config === undefined ? {} : { config }),
    log: (line) => console.log(line),
  });
} catch (error) {
  fail(error instanceof TypeError ? `--config: ${error.message}` : `cannot start: ${error instanceof Error ? error.message : String(error)}`);
}

console.log(`Interface A (OTP)           ${service.otpUrl}/api/send-otp`);
console.log(`Interface B (notifications) ${service.pushUrl}/v1`);
console.log(`Emulator                    ${service.pushUrl}/_emulator`);
console.log(`VAPID public key            ${service.vapidPublicKey}`);
// Keys are printed only when the service generated them: never the ones it was given.
if (service.generatedKeys.otp) console.log(`Dev OTP key (apiKey)        ${service.generatedKeys.otp}`);
if (service.generatedKeys.push) console.log(`Dev server key (X-API-Key)  ${service.generatedKeys.push}`);
console.log('ready');

const running = service;
const stop = (): void => {
  running.close().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
