import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** A fresh Firefox profile wired to a local push service, and how to start Firefox with it. */
export interface FirefoxForLocalPush {
  /** The profile directory, with a `user.js` holding the push prefs. */
  profileDir: string;
  /** The Firefox binary found (`FIREFOX_PATH`, else Debian's or the usual name), or null. */
  binary: string | null;
  /** Arguments for the binary: a fresh instance on this profile, opening the page. */
  args: string[];
  /** The whole command line, for a person to paste. */
  commandLine: string;
}

function findFirefox(env: Readonly<Record<string, string | undefined>>): string | null {
  const candidates = [env.FIREFOX_PATH, '/usr/bin/firefox-esr', '/usr/bin/firefox', '/Applications/Firefox.app/Contents/MacOS/firefox'];
  return candidates.find((candidate): candidate is string => typeof candidate === 'string' && candidate.length > 0 && existsSync(candidate)) ?? null;
}

const quote = (value: string): string => (/^[\w./:=@%+-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`);

/**
 * Make a fresh Firefox profile whose push client talks to `websocketUrl` instead of Mozilla's
 * push service, so a real notification arrives with no internet. Prefs cannot be given on the
 * command line, hence the profile's `user.js`. The permission prompt stays: the person grants it.
 *
 * @example
 * ```ts
 * const firefox = prepareFirefoxForLocalPush(pushService.websocketUrl, 'http://localhost:5173/');
 * console.log(firefox.commandLine);
 * ```
 */
export function prepareFirefoxForLocalPush(
  websocketUrl: string,
  pageUrl: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
): FirefoxForLocalPush {
  const profileDir = mkdtempSync(path.join(tmpdir(), 'pushbridge-firefox-'));
  const prefs: Record<string, string | boolean> = {
    'dom.push.enabled': true,
    'dom.push.connection.enabled': true,
    'dom.push.serverURL': websocketUrl,
    // The local push service speaks ws://, which Firefox refuses unless told this is a test setup.
    'dom.push.testing.allowInsecureServerURL': true,
    'browser.shell.checkDefaultBrowser': false,
    'browser.startup.homepage_override.mstone': 'ignore',
    'datareporting.policy.dataSubmissionEnabled': false,
  };
  writeFileSync(path.join(profileDir, 'user.js'), Object.entries(prefs).map(([name, value]) => `user_pref(${JSON.stringify(name)}, ${JSON.stringify(value)});\n`).join(''));
  const binary = findFirefox(env);
  const args = ['--no-remote', '--profile', profileDir, pageUrl];
  return { profileDir, binary, args, commandLine: [binary ?? 'firefox', ...args].map(quote).join(' ') };
}
