import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vite'

const here = fileURLToPath(new URL('.', import.meta.url))

/**
 * The console's build: plain Vite with Preact's JSX runtime (no plugin: nothing here needs hot
 * reloading or React aliases), served by the service under /console/. No inline script or style
 * reaches index.html, so the Content-Security-Policy can refuse them: the module preload polyfill
 * (which Vite would put in the entry) is off, and CSS goes to files.
 */
export default defineConfig({
  root: here,
  base: '/console/',
  publicDir: false,
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: fileURLToPath(new URL('../dist/console', import.meta.url)),
    emptyOutDir: true,
    assetsDir: 'assets',
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    cssCodeSplit: false,
    sourcemap: false,
    target: 'es2022',
    reportCompressedSize: false
  }
})
