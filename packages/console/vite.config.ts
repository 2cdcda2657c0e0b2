import { defineConfig } from 'vite';

/**
 * The console is served by Tessera at /console/ (packages/server/src/http/console/), from this
 * package's dist/. Hashed asset names let the server cache them for a year.
 */
export default defineConfig({
  base: '/console/',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: process.env.TESSERA_CONSOLE_OUT_DIR ?? 'dist',
    emptyOutDir: true,
    sourcemap: false,
    target: 'es2022',
    // No inline assets: the console's Content-Security-Policy allows scripts and styles from 'self' only.
    assetsInlineLimit: 0,
  },
});
