// The app's pages as React Router's Vite plugin provides them (a ServerBuild): imported by the
// server bundle's entry (server/serve.ts), loaded through Vite in development (server/app.ts).
declare module 'virtual:react-router/server-build';
