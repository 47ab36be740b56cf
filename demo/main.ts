// `npm run demo`: the local service, the example backend and the page, on one URL.
// `npm run demo -- --local-push` adds the local push service and a Firefox wired to it.
import { spawn, type ChildProcess } from 'node:child_process';
import { parseArgs } from 'node:util';
import { prepareFirefoxForLocalPush } from './local-push/firefox-for-local-push.ts';
import { startDemo } from './start-demo.ts';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '5173' },
    'service-port': { type: 'string', default: '8787' },
    'data-dir': { type: 'string', default: '.pushbridge' },
    'local-push': { type: 'boolean', default: false },
    'push-service-port': { type: 'string', default: '8790' },
    'no-browser': { type: 'boolean', default: false },
    quiet: { type: 'boolean', default: false },
  },
});

function port(name: string, value: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 0 || number > 65535) {
    console.error(`--${name} must be a port number (0 to 65535), not ${JSON.stringify(value)}.`);
    process.exit(2);
  }
  return number;
}

const demo = await startDemo({
  port: port('port', values.port),
  servicePort: port('service-port', values['service-port']),
  dataDir: values['data-dir'],
  ...(values['local-push'] ? { localPush: { port: port('push-service-port', values['push-service-port']) } } : {}),
  ...(values.quiet ? {} : { log: (line: string) => console.log(`[service] ${line}`) }),
}).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});

if (demo.service) {
  console.log(`Local service      ${demo.service.url} (Interface A /api/send-otp, Interface B /v1)`);
  if (demo.service.generatedKeys.push || demo.service.generatedKeys.otp) console.log('                   dev keys in the data dir; the page never sees them');
}
if (demo.hosted.push) console.log('Interface B        hosted (PUSH_BASE_URL)');
if (demo.hosted.otp) console.log('Interface A        hosted (OTP_BASE_URL)');

let firefox: ChildProcess | null = null;
if (demo.localPush) {
  const setup = prepareFirefoxForLocalPush(demo.localPush.websocketUrl, `${demo.url}/`);
  console.log(`Local push service ${demo.localPush.websocketUrl} (Firefox's push protocol, no internet needed)`);
  const hasDisplay = Boolean(process.env.DISPLAY || process.env.WAYLAND_DISPLAY) || process.platform === 'darwin';
  if (setup.binary && hasDisplay && !values['no-browser']) {
    firefox = spawn(setup.binary, setup.args, { stdio: 'ignore' });
    firefox.on('error', (error) => console.error(`Could not start Firefox: ${error.message}. Start it yourself:\n  ${setup.commandLine}`));
    console.log(`Started Firefox with a fresh profile (${setup.profileDir}).`);
  } else {
    console.log('Start Firefox with a fresh profile wired to it:');
    console.log(`  ${setup.commandLine}`);
  }
  console.log('In that Firefox: Enable notifications, allow, then Send. The notification comes through the local push service.');
}
console.log(`\nOpen ${demo.url}/\n`);
console.log('ready');

const stop = (): void => {
  // Only the Firefox this process started, by its own handle.
  if (firefox && firefox.exitCode === null) firefox.kill('SIGTERM');
  demo.close().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
