// What the Express server hands to every loader and action (see server/app.ts).
export interface SoovenirsLoadContext {
  /** Per-request nonce allowed by the Content-Security-Policy header. */
  cspNonce: string;
}

declare module 'react-router' {
  interface AppLoadContext extends SoovenirsLoadContext {}
}
