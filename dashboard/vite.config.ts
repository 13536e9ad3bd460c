import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

// `npm run dev` serves the dashboard with hot reload and forwards API calls to a local
// `betty serve` (BETTY_API_URL to point elsewhere), so the browser sees one origin as it does
// when the binary embeds the built files.
const apiTarget = process.env['BETTY_API_URL'] ?? 'http://127.0.0.1:8080';
const proxy = {
  '/v1': { target: apiTarget, changeOrigin: true },
  // Job statuses live under /v2 (the test-run dialog polls them).
  '/v2': { target: apiTarget, changeOrigin: true },
  '/healthz': { target: apiTarget, changeOrigin: true },
  '/readyz': { target: apiTarget, changeOrigin: true },
};

export default defineConfig({
  base: '/',
  plugins: [react(), tailwindcss()],
  server: { host: '127.0.0.1', port: 5173, strictPort: true, proxy },
  preview: { proxy },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
  },
  test: {
    environment: 'jsdom',
    globals: true,
    setupFiles: ['./src/test/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    css: false,
    restoreMocks: true,
    unstubGlobals: true,
    // Whole-app component tests render the router and shell in jsdom; on a loaded 2-core CI
    // machine one took just over the 5 s default, so allow 15 s (a hung test still fails).
    testTimeout: 15_000,
  },
});
