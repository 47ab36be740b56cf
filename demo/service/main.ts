// `npm run service -- --port 8787 --data-dir .pushbridge`: the local service on its own.
import { parseArgs } from 'node:util';
import { createService } from './create-service.ts';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '8787' },
    'data-dir': { type: 'string', default: '.pushbridge' },
  },
});

const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`--port must be a port number, not ${values.port}`);
  process.exit(2);
}

const service = await createService({ dataDir: values['data-dir'], port, log: (line) => console.log(line) });
console.log(`Interface B (notifications) ${service.url}/v1`);
console.log(`VAPID public key            ${service.vapidPublicKey}`);
if (!process.env.PUSH_API_KEY) console.log(`Dev server key (X-API-Key)  ${service.serverKeys[0]}`);
console.log('ready');

const stop = (): void => {
  service.close().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
