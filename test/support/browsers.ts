import { existsSync } from 'node:fs';

/** A browser the tests can drive: its path, or null when it is not installed. */
export interface BrowserLocation {
  name: 'chromium' | 'firefox';
  /** The environment variable that overrides the path. */
  variable: 'CHROMIUM_PATH' | 'FIREFOX_PATH';
  /** Debian's package that provides it. */
  debianPackage: 'chromium' | 'firefox-esr';
  path: string | null;
}

const DEFAULTS = {
  chromium: { variable: 'CHROMIUM_PATH', debianPackage: 'chromium', candidates: ['/usr/bin/chromium', '/usr/bin/chromium-browser'] },
  firefox: { variable: 'FIREFOX_PATH', debianPackage: 'firefox-esr', candidates: ['/usr/bin/firefox-esr', '/usr/bin/firefox'] },
} as const;

/**
 * Find a browser: the path in `CHROMIUM_PATH` / `FIREFOX_PATH` when set, else Debian's paths.
 */
export function locateBrowser(name: 'chromium' | 'firefox', env: NodeJS.ProcessEnv = process.env): BrowserLocation {
  const { variable, debianPackage, candidates } = DEFAULTS[name];
  const configured = env[variable];
  const path = configured ? (existsSync(configured) ? configured : null) : (candidates.find((candidate) => existsSync(candidate)) ?? null);
  return { name, variable, debianPackage, path };
}

/** The path of a browser, or an error that says how to install it. */
export function browserPath(name: 'chromium' | 'firefox'): string {
  const location = locateBrowser(name);
  if (location.path) return location.path;
  throw new Error(`${name} not found: set ${location.variable}, or run: sudo apt-get install -y ${location.debianPackage}`);
}
