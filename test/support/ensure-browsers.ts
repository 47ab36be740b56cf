// Run before the browser tests: make sure Chromium, Firefox and dbus-daemon are there. On Debian
// as root, install what is missing with apt-get; anywhere else, say the exact command and stop.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { locateBrowser } from './browsers.ts';

const missing: string[] = [];
for (const name of ['chromium', 'firefox'] as const) {
  const location = locateBrowser(name);
  if (location.path) console.log(`${name}: ${location.path}`);
  else if (process.env[location.variable]) {
    console.error(`${location.variable}=${process.env[location.variable]} does not exist.`);
    process.exit(1);
  } else missing.push(location.debianPackage);
}
if (spawnSync('dbus-daemon', ['--version']).status !== 0) missing.push('dbus-daemon');

if (missing.length > 0) {
  const command = `apt-get install -y ${missing.join(' ')}`;
  const debian = existsSync('/etc/debian_version') || /ID(_LIKE)?=.*debian/.test(readFileSync('/etc/os-release', 'utf8'));
  const root = process.getuid?.() === 0;
  if (!debian || !root) {
    console.error(`Missing: ${missing.join(', ')}. Install with:\n  sudo apt-get update && sudo ${command}\nor point CHROMIUM_PATH / FIREFOX_PATH at your browsers.`);
    process.exit(1);
  }
  console.log(`Missing: ${missing.join(', ')}. Installing with: apt-get update && ${command}`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update'], { stdio: 'inherit', env });
  execFileSync('apt-get', ['install', '-y', ...missing], { stdio: 'inherit', env });
}
