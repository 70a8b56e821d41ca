import { index, type RouteConfig, route } from '@react-router/dev/routes';

export default [
  index('routes/site/home.tsx'),
  route('api/auth/*', 'routes/api/auth.ts'),
  route('api/send-email', 'routes/api/send-email.ts'),
  route('*', 'routes/site/not-found.tsx'),
] satisfies RouteConfig;
