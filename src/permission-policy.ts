import type { BrowserEnv } from './browser-env.js';

/** Days to wait after the 1st, 2nd and 3rd (and later) "not now", as OneSignal users expect. */
const BACKOFF_DAYS = [3, 7, 30] as const;
const DAY_MS = 24 * 60 * 60 * 1000;
const KEY = 'pushbridge:soft-prompt';

interface PromptRecord {
  declined: number;
  nextAskAt: number;
}

/** A soft-prompt policy: when the app's own "turn on notifications?" UI may show. */
export interface PermissionPolicy {
  /** True when the browser has not been asked yet and no "not now" backoff is running. */
  shouldAskPermission(): boolean;
  /** The user answered "not now" in the app's UI: wait 3, then 7, then 30 days. */
  notNow(): void;
  /** Forget earlier "not now" answers. */
  reset(): void;
}

/**
 * The soft-prompt policy for this browser, kept in `localStorage`. The browser's own prompt can
 * be shown once per user gesture and, once blocked, never again: ask in your own UI first, and
 * call the real `subscribe()` only after a yes.
 *
 * @example
 * ```ts
 * const policy = createPermissionPolicy();
 * if (policy.shouldAskPermission()) showBanner({ onYes: () => push.subscribe(), onLater: () => policy.notNow() });
 * ```
 */
export function createPermissionPolicy(env: Pick<BrowserEnv, 'notification' | 'storage' | 'now'>): PermissionPolicy {
  function read(): PromptRecord {
    try {
      const parsed = JSON.parse(env.storage?.getItem(KEY) ?? 'null') as Partial<PromptRecord> | null;
      if (parsed && typeof parsed.declined === 'number' && typeof parsed.nextAskAt === 'number') {
        return { declined: parsed.declined, nextAskAt: parsed.nextAskAt };
      }
    } catch {
      // A damaged record counts as none.
    }
    return { declined: 0, nextAskAt: 0 };
  }
  return {
    shouldAskPermission() {
      if (env.notification?.permission !== 'default') return false;
      return env.now() >= read().nextAskAt;
    },
    notNow() {
      const declined = read().declined + 1;
      const days = BACKOFF_DAYS[Math.min(declined, BACKOFF_DAYS.length) - 1] ?? 30;
      env.storage?.setItem(KEY, JSON.stringify({ declined, nextAskAt: env.now() + days * DAY_MS }));
    },
    reset() {
      env.storage?.removeItem(KEY);
    },
  };
}
