import { build, type Metafile } from 'esbuild';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

/** Gzip sizes (level 9) of a production bundle of one entry. */
export interface BundleSize {
  /** What a page loads up front: the entry chunk and the chunks it imports statically. */
  initialGzip: number;
  /** The above and every chunk it may import later (`import()`). */
  totalGzip: number;
  /** Minified bytes of the whole, before compression. */
  totalMinified: number;
}

/**
 * Bundle `entry` as `research/anchor-sizes.md` measured the other SDKs (esbuild, bundle, minify,
 * ESM, browser, es2022, dependencies included, code splitting for lazy imports), and gzip each
 * chunk at level 9.
 *
 * @example
 * ```ts
 * const { initialGzip } = await measureBundle('src/index.ts');
 * ```
 */
export async function measureBundle(entry: string): Promise<BundleSize> {
  const outdir = path.resolve('/virtual-out');
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    splitting: true,
    write: false,
    metafile: true,
    outdir,
    define: { 'process.env.NODE_ENV': JSON.stringify('production') },
    logLevel: 'silent',
  });
  const gzip = new Map(result.outputFiles.map((file) => [path.relative(process.cwd(), file.path), { gzip: gzipSync(file.contents, { level: 9 }).length, minified: file.contents.length }]));
  const outputs: Metafile['outputs'] = result.metafile.outputs;
  const entryOutput = Object.keys(outputs).find((name) => outputs[name]?.entryPoint !== undefined);
  if (!entryOutput) throw new Error('esbuild produced no entry chunk');
  const initial = new Set<string>();
  const visit = (name: string): void => {
    if (initial.has(name)) return;
    initial.add(name);
    for (const imported of outputs[name]?.imports ?? []) if (imported.kind === 'import-statement') visit(imported.path);
  };
  visit(entryOutput);
  const sizeOf = (name: string): { gzip: number; minified: number } => gzip.get(name) ?? { gzip: 0, minified: 0 };
  return {
    initialGzip: [...initial].reduce((sum, name) => sum + sizeOf(name).gzip, 0),
    totalGzip: Object.keys(outputs).reduce((sum, name) => sum + sizeOf(name).gzip, 0),
    totalMinified: Object.keys(outputs).reduce((sum, name) => sum + sizeOf(name).minified, 0),
  };
}
