import { index, type RouteConfig, route } from '@react-router/dev/routes';

// The French URLs of the specification, one route module each. Grouped by area.
export default [
  // Public site: marketing, information, blog, legal, contact
  index('routes/site/home.tsx'),

  // Accounts: sign-in, registration, first administrator
  // Customer account
  // Shop: configurator, quotes, checkout, confirmation, invoices, payment pages

  // Back office

  // Resource routes (API)
  route('api/auth/*', 'routes/api/auth.ts'),
  route('api/send-email', 'routes/api/send-email.ts'),

  route('*', 'routes/site/not-found.tsx'),
] satisfies RouteConfig;
