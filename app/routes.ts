import { type RouteConfig, index, route } from '@react-router/dev/routes';

export default [
  index('routes/site/home.tsx'),
  route('api/auth/*', 'routes/api/auth.ts'),
  route('*', 'routes/site/not-found.tsx'),
] satisfies RouteConfig;
