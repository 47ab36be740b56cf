/// <reference types="vitest/config" />
import { fileURLToPath } from 'node:url';
import { defineConfig, type UserConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));
const path = (relative: string): string => fileURLToPath(new URL(relative, import.meta.url));

// Three builds, picked by --mode:
// - default: the library, ESM, `.` and `./sw`, dependencies left to the consumer's bundler;
// - classic-sw: `pushbridge-sw.js`, one classic script with its dependencies, for
//   `navigator.serviceWorker.register()` or `importScripts()`;
// - demo: the demo page, served by the example backend from dist/demo.
// Vitest reads the default mode's `test` block.
export default defineConfig(({ mode }): UserConfig => {
  if (mode === 'classic-sw') {
    return {
      root,
      // workbox-core's modules branch on process.env.NODE_ENV; a worker has no `process`.
      define: { 'process.env.NODE_ENV': JSON.stringify('production') },
      build: {
        outDir: path('dist'),
        emptyOutDir: false,
        minify: true,
        target: 'es2022',
        lib: { entry: path('sw/default-worker.ts'), formats: ['iife'], name: 'pushbridge', fileName: () => 'pushbridge-sw.js' },
      },
    };
  }
  if (mode === 'demo') {
    return {
      root: path('demo/web'),
      build: { outDir: path('dist/demo'), emptyOutDir: true, target: 'es2022' },
    };
  }
  return {
    root,
    test: { include: ['test/unit/**/*.test.ts'] },
    build: {
      outDir: path('dist'),
      emptyOutDir: true,
      target: 'es2022',
      lib: { entry: { index: path('src/index.ts'), sw: path('sw/index.ts') }, formats: ['es'] },
      rolldownOptions: {
        external: [/^idb(\/|$)/, /^workbox-window(\/|$)/, /^workbox-core(\/|$)/],
        output: { chunkFileNames: 'chunks/[name]-[hash].js' },
      },
    },
  };
});
