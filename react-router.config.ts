import type { Config } from '@react-router/dev/config';
import { sourcesFingerprint, writeBuildStamp } from './server/build-stamp';

// Read when the build starts, so that a file edited during the build leaves build/ stale.
const sources = sourcesFingerprint(process.cwd());

export default {
  ssr: true,
  future: {
    v8_middleware: false,
    // `npm run dev`: Vite scans the routes for their dependencies at start, rather than finding
    // them page by page and reloading the browser each time (« 504 Outdated Optimize Dep »).
    unstable_optimizeDeps: true,
  },
  // `npm start` rebuilds when build/.stamp no longer matches the sources (server/build-stamp.ts).
  buildEnd: ({ reactRouterConfig }) => writeBuildStamp(reactRouterConfig.buildDirectory, sources),
} satisfies Config;
