import { fileURLToPath } from 'node:url';
import { createBackend, type Backend } from './backend/create-backend.ts';
import { startLocalPushService, type LocalPushService } from './local-push/local-push-service.ts';
import { createService, type Service } from './service/create-service.ts';

/** Options of {@link startDemo}. */
export interface DemoOptions {
  /** Port of the page and backend; 0 picks a free one. */
  port?: number;
  /** Port of the local service; 0 picks a free one. */
  servicePort?: number;
  /** The local service's data dir. */
  dataDir: string;
  /**
   * Where `PUSH_BASE_URL`, `PUSH_API_KEY`, `PUSH_VAPID_PUBLIC_KEY`, `OTP_BASE_URL` and
   * `OTP_API_KEY` are read: when an interface's pair is set, the backend talks to the hosted
   * service for it instead of the local one. process.env by default.
   */
  env?: Readonly<Record<string, string | undefined>>;
  /** The local service's configuration (decisions.md's config file); generated dev keys otherwise. */
  serviceConfig?: unknown;
  /** Also start the local push service (Firefox's protocol), for a real notification offline. */
  localPush?: { port?: number };
  /** Request log of the service; silent by default. */
  log?: (line: string) => void;
}

/** The running demo: the local service (unless both interfaces are hosted), and the backend that serves the page. */
export interface Demo {
  url: string;
  /** The local service, or null when both interfaces are the hosted service's. */
  service: Service | null;
  /** Which interfaces the backend calls on the hosted service. */
  hosted: { push: boolean; otp: boolean };
  /** The local push service, with `localPush`. */
  localPush: LocalPushService | null;
  backend: Backend;
  close(): Promise<void>;
}

/** The template the local service gets, so the page's template field has something to find. */
const WELCOME_TEMPLATE = { id: 'welcome', title: 'Welcome, {{name}}', body: 'This notification came from the "welcome" template.' };

function hostedPair(env: Readonly<Record<string, string | undefined>>, urlName: string, keyName: string): { baseUrl: string; apiKey: string } | null {
  const baseUrl = env[urlName] || undefined;
  const apiKey = env[keyName] || undefined;
  if (baseUrl === undefined && apiKey === undefined) return null;
  if (baseUrl === undefined || apiKey === undefined) throw new TypeError(`Set both ${urlName} and ${keyName} to use the hosted service, or neither.`);
  try {
    new URL(baseUrl);
  } catch (error) {
    throw new TypeError(`${urlName} must be an absolute URL.`, { cause: error });
  }
  return { baseUrl, apiKey };
}

async function seedTemplate(service: Service): Promise<void> {
  const response = await fetch(`${service.pushUrl}/_emulator/templates`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': service.serverKeys[0] as string },
    body: JSON.stringify(WELCOME_TEMPLATE),
  });
  if (!response.ok) throw new Error(`The local service refused the demo's template (${response.status}).`);
}

/**
 * Start the whole demo loop in this process: the local service (for whichever interfaces are
 * not hosted), optionally the local push service, then the example backend wired to them with
 * keys that stay in this process. Expects `npm run build` to have run.
 *
 * @example
 * ```ts
 * const demo = await startDemo({ dataDir: '.pushbridge' });
 * console.log(demo.url);
 * ```
 */
export async function startDemo(options: DemoOptions): Promise<Demo> {
  const env = options.env ?? process.env;
  const hostedPush = hostedPair(env, 'PUSH_BASE_URL', 'PUSH_API_KEY');
  const hostedOtp = hostedPair(env, 'OTP_BASE_URL', 'OTP_API_KEY');
  const vapidPublicKey = env.PUSH_VAPID_PUBLIC_KEY || undefined;
  if (hostedPush && vapidPublicKey === undefined) {
    throw new TypeError("Set PUSH_VAPID_PUBLIC_KEY (the hosted service's VAPID public key, from its dashboard) with PUSH_BASE_URL.");
  }
  const opened: { close(): Promise<void> }[] = [];
  const closeAll = async (): Promise<void> => {
    for (const item of opened.splice(0).reverse()) await item.close();
  };
  try {
    const service =
      hostedPush && hostedOtp
        ? null
        : await createService({
            dataDir: options.dataDir,
            port: options.servicePort ?? 0,
            // Keys given for the hosted service are not the local service's: it makes its own dev keys.
            env: {},
            ...(options.serviceConfig === undefined ? {} : { config: options.serviceConfig }),
            ...(options.log ? { log: options.log } : {}),
          });
    if (service) {
      opened.push(service);
      if (!hostedPush && service.config.push.workspaces[0]?.templates.length === 0) await seedTemplate(service);
    }
    const localPush = options.localPush ? await startLocalPushService({ port: options.localPush.port ?? 0 }) : null;
    if (localPush) opened.push(localPush);
    const local = service as Service;
    const push = hostedPush
      ? { ...hostedPush, vapidPublicKey: vapidPublicKey as string }
      : { baseUrl: local.pushUrl, apiKey: local.serverKeys[0] as string, vapidPublicKey: local.vapidPublicKey };
    const otp = hostedOtp ? { ...hostedOtp, emulatedInbox: false } : { baseUrl: local.otpUrl, apiKey: local.otpKeys[0] as string, emulatedInbox: true };
    const configured = hostedPush ? [] : (local.config.push.workspaces[0]?.templates.map((template) => template.id) ?? []);
    const templates = hostedPush ? [] : configured.length > 0 ? configured : [WELCOME_TEMPLATE.id];
    const backend = await createBackend({
      push,
      otp,
      templates,
      pageDir: fileURLToPath(new URL('../dist/demo', import.meta.url)),
      workerDir: fileURLToPath(new URL('../dist', import.meta.url)),
      port: options.port ?? 0,
    });
    opened.push(backend);
    return {
      url: backend.url,
      service,
      hosted: { push: hostedPush !== null, otp: hostedOtp !== null },
      localPush,
      backend,
      close: closeAll,
    };
  } catch (error) {
    await closeAll();
    throw error;
  }
}
