import { execFile } from 'node:child_process';
import { copyFileSync, cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { build } from 'vite';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../', import.meta.url));

/** A consumer app built from the packed tarball, ready to serve. */
export interface ConsumerApp {
  /** The built site: index.html, the app's own worker `sw.js`, `classic-sw.js` and `pushbridge-sw.js`. */
  siteDir: string;
  /** The tarball's file list, as npm packed it. */
  packedFiles: string[];
  remove(): void;
}

/** One TypeScript check of the consumer's code: which resolution, which file, what tsc said. */
export interface TypeCheck {
  moduleResolution: 'bundler' | 'node16';
  file: 'main.ts' | 'sw.ts';
  ok: boolean;
  output: string;
}

async function npm(args: string[], cwd: string): Promise<string> {
  const { stdout } = await run('npm', args, { cwd, maxBuffer: 16 * 1024 * 1024, env: { ...process.env, npm_config_update_notifier: 'false' } });
  return stdout;
}

/**
 * Pack pushbridge as `npm publish` would (dist/ must be built), install the tarball into a copy
 * of test/consumer as an app would (its dependencies from the registry or npm's cache), and build
 * the app with Vite: the page with its imports, and the app's own worker as one classic script.
 */
export async function buildConsumerApp(): Promise<ConsumerApp & { appDir: string }> {
  const work = mkdtempSync(path.join(tmpdir(), 'pushbridge-consumer-'));
  const [packed] = JSON.parse(await npm(['pack', '--json', '--pack-destination', work], root)) as { filename: string; files: { path: string }[] }[];
  if (!packed) throw new Error('npm pack produced nothing');
  const appDir = path.join(work, 'app');
  cpSync(path.join(root, 'test/consumer'), appDir, { recursive: true });
  await npm(['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', path.join(work, packed.filename)], appDir);

  const siteDir = path.join(work, 'site');
  await build({ configFile: false, logLevel: 'warn', root: appDir, build: { outDir: siteDir, emptyOutDir: true, target: 'es2022' } });
  await build({
    configFile: false,
    logLevel: 'warn',
    root: appDir,
    build: {
      outDir: siteDir,
      emptyOutDir: false,
      target: 'es2022',
      lib: { entry: path.join(appDir, 'sw.ts'), formats: ['iife'], name: 'consumerWorker', fileName: () => 'sw.js' },
    },
  });
  copyFileSync(path.join(appDir, 'classic-sw.js'), path.join(siteDir, 'classic-sw.js'));
  copyFileSync(path.join(appDir, 'node_modules/pushbridge/dist/pushbridge-sw.js'), path.join(siteDir, 'pushbridge-sw.js'));
  return {
    appDir,
    siteDir,
    packedFiles: packed.files.map((file) => file.path),
    remove: () => rmSync(work, { recursive: true, force: true }),
  };
}

/**
 * Type-check the consumer's page and worker code against the installed package's types, with
 * `moduleResolution` `bundler` and `node16` (the two ways TypeScript users resolve `exports`).
 */
export async function typeCheckConsumer(appDir: string): Promise<TypeCheck[]> {
  const tsc = path.join(root, 'node_modules/typescript/bin/tsc');
  const checks: TypeCheck[] = [];
  for (const moduleResolution of ['bundler', 'node16'] as const) {
    for (const file of ['main.ts', 'sw.ts'] as const) {
      const config = path.join(appDir, `tsconfig.${moduleResolution}.${file}.json`);
      writeFileSync(
        config,
        JSON.stringify({
          compilerOptions: {
            strict: true,
            noEmit: true,
            target: 'ES2022',
            module: moduleResolution === 'bundler' ? 'ESNext' : 'Node16',
            moduleResolution,
            lib: file === 'main.ts' ? ['ES2022', 'DOM', 'DOM.Iterable'] : ['ES2022', 'WebWorker'],
            types: [],
            // The package's own declarations are checked, not skipped.
            skipLibCheck: false,
          },
          files: [file],
        }),
      );
      try {
        const { stdout } = await run(process.execPath, [tsc, '-p', config], { cwd: appDir });
        checks.push({ moduleResolution, file, ok: true, output: stdout });
      } catch (error) {
        checks.push({ moduleResolution, file, ok: false, output: String((error as { stdout?: string }).stdout ?? error) });
      }
    }
  }
  return checks;
}

/** The text of every JavaScript file the tarball ships. */
export function shippedScripts(appDir: string, packedFiles: string[]): { file: string; text: string }[] {
  return packedFiles
    .filter((file) => file.endsWith('.js'))
    .map((file) => ({ file, text: readFileSync(path.join(appDir, 'node_modules/pushbridge', file), 'utf8') }));
}
