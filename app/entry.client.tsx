import { StrictMode, startTransition } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { HydratedRouter } from 'react-router/dom';

/*
 * React Router's own browser entry, plus one listener. When a fetcher's request is superseded (a
 * new load or submission on the same fetcher while the last one, or its revalidation, is still in
 * flight), the router aborts it on purpose, yet with single fetch the aborted promise can be left
 * without a handler and reach the page as « Uncaught (in promise) AbortError: signal is aborted
 * without reason » (remix-run/react-router#14203). Nothing failed for the person using the page,
 * so that rejection, and only an AbortError, is not reported; every other error still is.
 */
window.addEventListener('unhandledrejection', (event) => {
  if (event.reason instanceof DOMException && event.reason.name === 'AbortError') event.preventDefault();
});

startTransition(() => {
  hydrateRoot(
    document,
    <StrictMode>
      <HydratedRouter />
    </StrictMode>,
  );
});
