import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { shippedScripts, typeCheckConsumer } from '../support/consumer-app.ts';
import { expect, test } from './consumer-fixtures.ts';

// Checks of the tarball itself; they need no browser, so they run once, in this project.
test('the tarball ships built files only, with no bundler assumptions', async ({ consumer }) => {
  const manifest = JSON.parse(readFileSync(fileURLToPath(new URL('../../package.json', import.meta.url)), 'utf8')) as { exports: Record<string, unknown> };
  expect(consumer.packedFiles.every((file) => /^(dist\/|README\.md$|package\.json$|LICENSE)/.test(file))).toBe(true);
  for (const target of ['dist/index.js', 'dist/sw.js', 'dist/pushbridge-sw.js', 'dist/types/src/index.d.ts', 'dist/types/sw/index.d.ts']) {
    expect(consumer.packedFiles).toContain(target);
  }
  expect(Object.keys(manifest.exports)).toEqual(['.', './sw', './pushbridge-sw.js']);
  for (const { file, text } of shippedScripts(consumer.appDir, consumer.packedFiles)) {
    expect(text, file).not.toMatch(/process\.env|__DEV__|import\.meta\.env|require\(/);
  }
});

test('TypeScript consumers type-check with moduleResolution bundler and node16', async ({ consumer }) => {
  const checks = await typeCheckConsumer(consumer.appDir);
  for (const check of checks) expect(check.ok, `${check.moduleResolution} ${check.file}:\n${check.output}`).toBe(true);
  expect(checks).toHaveLength(4);
});

test('importing pushbridge/sw in a plain module context adds no listener and touches no global', async ({ consumer }) => {
  const before = new Set(Object.getOwnPropertyNames(globalThis));
  const module = (await import(path.join(consumer.appDir, 'node_modules/pushbridge/dist/sw.js'))) as Record<string, unknown>;
  expect(typeof module.installPushHandlers).toBe('function');
  expect(Object.getOwnPropertyNames(globalThis).filter((name) => !before.has(name))).toEqual([]);
});
