import { randomBytes } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';

/** A fresh CSP nonce per response, handed to React Router through the load context. */
export function cspNonce(_req: Request, res: Response, next: NextFunction) {
  res.locals.cspNonce = randomBytes(16).toString('base64');
  next();
}

export function securityHeaders({ production, dev }: { production: boolean; dev: boolean }) {
  return (_req: Request, res: Response, next: NextFunction) => {
    const nonce = res.locals.cspNonce as string;
    // Vite's development client needs inline and eval'd scripts; production allows nonce'd scripts only.
    const scriptSrc = dev ? "'self' 'unsafe-inline' 'unsafe-eval'" : `'self' 'nonce-${nonce}' 'strict-dynamic'`;
    const csp = [
      "default-src 'self'",
      `script-src ${scriptSrc}`,
      // Radix and sonner set inline styles; no style can run code, so this stays acceptable.
      "style-src 'self' 'unsafe-inline'",
      "img-src 'self' data: blob:",
      "font-src 'self'",
      `connect-src 'self'${dev ? ' ws: wss:' : ''}`,
      "form-action 'self' https://checkout.stripe.com https://p.monetico-services.com",
      "frame-src 'self' https://www.openstreetmap.org",
      "object-src 'none'",
      "base-uri 'none'",
      "frame-ancestors 'none'",
    ].join('; ');
    res.setHeader('Content-Security-Policy', csp);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'strict-origin-when-cross-origin');
    res.setHeader('X-Frame-Options', 'DENY');
    res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
    res.setHeader('Permissions-Policy', 'camera=(), microphone=(), geolocation=(), payment=(self)');
    if (production) res.setHeader('Strict-Transport-Security', 'max-age=63072000; includeSubDomains');
    next();
  };
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Refuses state-changing requests sent by a browser from another site. Browsers always send
 * Origin on cross-site POSTs; requests without it (servers, webhooks, curl) are left to their own
 * authentication (signatures, cookies with SameSite=Lax).
 */
export function sameOriginOnly(trustedOrigins: () => string[]) {
  return (req: Request, res: Response, next: NextFunction) => {
    if (SAFE_METHODS.has(req.method)) return next();
    const origin = req.get('origin');
    if (!origin) return next();
    const own = `${req.protocol}://${req.get('host')}`;
    if (origin === own || trustedOrigins().includes(origin)) return next();
    res.status(403).type('text/plain; charset=utf-8').send('Requête refusée : origine non autorisée.');
  };
}
