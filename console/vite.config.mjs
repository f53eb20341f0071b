// The console's build: a single-page app under /app/, written to dist/console/app/ (beside the
// compiled server module of src/console/, which a build here must not wipe) where the daemon
// serves it (src/console/). Asset names carry content hashes, so they are cached for good.
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/app/',
  plugins: [react()],
  build: {
    outDir: fileURLToPath(new URL('../dist/console/app', import.meta.url)),
    emptyOutDir: true,
    // no data: URLs: everything is a file of our own origin (the CSP's img-src 'self')
    assetsInlineLimit: 0,
    // browsers the console supports preload modules themselves; the polyfill would be dead weight
    modulePreload: { polyfill: false },
  },
});
