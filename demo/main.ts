// `npm run demo`: the local service, the example backend and the page, on one URL.
import { parseArgs } from 'node:util';
import { startDemo } from './start-demo.ts';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '5173' },
    'service-port': { type: 'string', default: '8787' },
    'data-dir': { type: 'string', default: '.pushbridge' },
  },
});

const demo = await startDemo({
  port: Number(values.port),
  servicePort: Number(values['service-port']),
  dataDir: values['data-dir'],
  log: (line) => console.log(`[service] ${line}`),
});
console.log(`Local service (Interface B) ${demo.service.url}/v1`);
console.log(`Demo                        ${demo.url}/`);
console.log('ready');

const stop = (): void => {
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
