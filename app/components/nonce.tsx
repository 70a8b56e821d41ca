import { createContext, useContext } from 'react';

// The CSP nonce of the current response, so that inline scripts rendered by React Router carry it.
const NonceContext = createContext<string>('');

export const NonceProvider = NonceContext.Provider;

export function useNonce(): string {
  return useContext(NonceContext);
}
