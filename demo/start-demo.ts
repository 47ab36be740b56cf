import { fileURLToPath } from 'node:url';
import { createBackend, type Backend } from './backend/create-backend.ts';
import { createService, type Service } from './service/create-service.ts';

/** Options of {@link startDemo}. */
export interface DemoOptions {
  /** Port of the page and backend; 0 picks a free one. */
  port?: number;
  /** Port of the local service; 0 picks a free one. */
  servicePort?: number;
  /** The local service's data dir. */
  dataDir: string;
  /** Request log of the service; silent by default. */
  log?: (line: string) => void;
}

/** The running demo: the local service, and the backend that serves the page. */
export interface Demo {
  url: string;
  service: Service;
  backend: Backend;
  close(): Promise<void>;
}

/**
 * Start the whole demo loop in this process: the local service, then the example backend
 * wired to it with the service's server key. Expects `npm run build` to have run.
 *
 * @example
 * ```ts
 * const demo = await startDemo({ dataDir: '.pushbridge' });
 * console.log(demo.url);
 * ```
 */
export async function startDemo(options: DemoOptions): Promise<Demo> {
  const service = await createService({
    dataDir: options.dataDir,
    port: options.servicePort ?? 0,
    ...(options.log ? { log: options.log } : {}),
  });
  const backend = await createBackend({
    pushBaseUrl: service.url,
    pushApiKey: service.serverKeys[0] as string,
    vapidPublicKey: service.vapidPublicKey,
    pageDir: fileURLToPath(new URL('../dist/demo', import.meta.url)),
    workerDir: fileURLToPath(new URL('../dist', import.meta.url)),
    port: options.port ?? 0,
  });
  return {
    url: backend.url,
    service,
    backend,
    async close() {
      await backend.close();
      await service.close();
    },
  };
}
