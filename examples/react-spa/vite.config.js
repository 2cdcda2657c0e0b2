import { defineConfig } from 'vite';

export default defineConfig({
  // JSX for React 19 without a plugin; @vitejs/plugin-react adds Fast Refresh on top if you want it.
  oxc: { jsx: { runtime: 'automatic' } },
  server: { port: 5173, strictPort: true },
  preview: { port: 5173, strictPort: true },
  build: { target: 'es2022' },
});
