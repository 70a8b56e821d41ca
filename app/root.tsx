// First of all, before any module builds a schema: zod's jitless setting (no `new Function` probe,
// which the CSP reports even when caught). The root route is the first module a page evaluates.
import '~/domain/zod-config';
import frauncesLatin from '@fontsource-variable/fraunces/files/fraunces-latin-wght-normal.woff2?url';
import interLatin from '@fontsource-variable/inter/files/inter-latin-wght-normal.woff2?url';
import { useEffect } from 'react';
import {
  data,
  isRouteErrorResponse,
  Link,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  type UIMatch,
  useLocation,
  useMatches,
  useRouteLoaderData,
} from 'react-router';
import { ACCESS_MESSAGES } from '~/domain/admin/messages';
import { isDocumentRoute } from '~/domain/document-routes';
import { SANDBOX_POLICY_MESSAGES } from '~/domain/payments/sandbox-policy';
import { getUser } from '~/server/auth/session.server';
import { log } from '~/server/log.server';
import { isDemoShopRunning } from '~/server/payments/sandbox-mode.server';
import type { Route } from './+types/root';
import appCss from './app.css?url';
import { AccessError } from './components/admin/access-error';
import { DeferredToaster } from './components/deferred-toaster';
import { NavigationProgress } from './components/navigation-progress';
import { useNonce } from './components/nonce';
import { documentOnlyScript } from './components/site/page-enhancements';
import { SiteFooter } from './components/site-footer';
import { SiteHeader } from './components/site-header';
import { Button } from './components/ui/button';

export const links: Route.LinksFunction = () => [
  // The stylesheet first: as a side-effect import React emits it after the ~30 modulepreload links,
  // and on a slow connection the first paint then waits behind the scripts.
  { rel: 'stylesheet', href: appCss, precedence: 'default' },
  // The Latin subsets of both fonts are needed by every page: fetch them with the CSS, not after it.
  { rel: 'preload', href: interLatin, as: 'font', type: 'font/woff2', crossOrigin: 'anonymous' },
  { rel: 'preload', href: frauncesLatin, as: 'font', type: 'font/woff2', crossOrigin: 'anonymous' },
  { rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' },
];

export function meta({ error, location }: Route.MetaArgs) {
  if (error) {
    const notFound = isRouteErrorResponse(error) && error.status === 404;
    const title = notFound
      ? 'Page introuvable'
      : isBackOffice(location.pathname)
        ? 'Accès à l’administration impossible'
        : 'Une erreur est survenue';
    return [{ title: `${title} | Soovenirs` }, { name: 'robots', content: 'noindex' }];
  }
  return [
    { title: 'Soovenirs\u202F: numérisation de vos souvenirs' },
    {
      name: 'description',
      content:
        'Numérisation de photos, diapositives, négatifs, cassettes VHS et films Super\u00A08, restauration et boîte à souvenirs. 100\u202F% Made in France.',
    },
  ];
}

export async function loader({ request }: Route.LoaderArgs) {
  const user = await readSessionUser(request);
  // The same for every visitor (it comes from the environment): cached public pages stay correct.
  // The banner's words come from here so that the payment settings' code stays out of every page's scripts.
  return { user, demoShopBanner: isDemoShopRunning() ? SANDBOX_POLICY_MESSAGES.demoBanner : null };
}

/**
 * The visitor's session, read from the database. When it cannot be read (the database is down),
 * the answer is 503, a state that passes, not a 500: the error boundary then shows the site's error
 * page, or the back office's own error state.
 */
async function readSessionUser(request: Request) {
  try {
    return await getUser(request);
  } catch (error) {
    log.error({ err: error }, 'the session could not be read');
    throw data(null, { status: 503, headers: { 'Cache-Control': 'no-store', 'Retry-After': '5' } });
  }
}

let documentNonce: string | undefined;

/**
 * The response's CSP nonce, on the server from the request and in the browser from the document
 * (browsers hide the attribute but keep the `nonce` property), so that hydration renders the
 * same `nonce` attributes as the server did.
 */
function useDocumentNonce(): string {
  const serverNonce = useNonce();
  if (typeof document === 'undefined') return serverNonce;
  documentNonce ??= document.querySelector<HTMLElement>('[nonce]')?.nonce ?? '';
  return documentNonce;
}

function isBackOffice(pathname: string): boolean {
  return pathname === '/admin' || pathname.startsWith('/admin/');
}

/**
 * The public site's pages (app/routes/site) are sent as documents: their HTML and CSS do all they
 * show, their links and forms work natively, and one small inline script adds the header's and the
 * home page's enhancements; React and the router are not loaded (docs/decisions/018). Which pages:
 * the one rule of domain/document-routes.ts. Decided on the server only: in the browser the root
 * always renders the scripts, which a page that hydrates was sent with, and a client-side
 * navigation to a site page keeps them.
 */
function isSentAsDocument(matches: UIMatch[]): boolean {
  return typeof document === 'undefined' && isDocumentRoute(matches.at(-1)?.id);
}

const DOCUMENT_ONLY_SCRIPT = documentOnlyScript();

export function Layout({ children }: { children: React.ReactNode }) {
  const nonce = useDocumentNonce();
  // Undefined when the root loader itself failed: the frame then shows the signed-out state.
  const data = useRouteLoaderData<typeof loader>('root');
  const { pathname } = useLocation();
  const sentAsDocument = isSentAsDocument(useMatches());
  useEffect(() => {
    // Lets browser tests wait for a working page (see tests/support/browser.ts).
    document.documentElement.dataset.interactive = 'true';
  }, []);
  return (
    <html lang="fr">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#1d3557" />
        <Meta />
        <Links nonce={nonce} />
      </head>
      <body className="flex min-h-dvh flex-col">
        <a
          href="#contenu"
          className="sr-only z-[70] rounded-md bg-primary px-4 py-2 font-medium text-primary-foreground focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:px-4 focus:py-2"
        >
          Aller au contenu
        </a>
        <NavigationProgress />
        <SiteHeader user={data?.user ?? null} />
        {/* The header is fixed: the content starts below it. */}
        <main id="contenu" tabIndex={-1} className="flex flex-1 flex-col pt-header focus:outline-none">
          {data?.demoShopBanner ? <DemoShopBanner text={data.demoShopBanner} /> : null}
          {children}
        </main>
        <SiteFooter />
        <DeferredToaster visibleToasts={isBackOffice(pathname) ? 5 : 3} />
        {sentAsDocument ? (
          // biome-ignore lint/security/noDangerouslySetInnerHtml: our own constant code, under the page's CSP nonce.
          <script nonce={nonce} dangerouslySetInnerHTML={{ __html: DOCUMENT_ONLY_SCRIPT }} />
        ) : (
          <>
            {/* Scrolls to the top on every new page and restores the position on back/forward. */}
            <ScrollRestoration nonce={nonce} />
            <Scripts nonce={nonce} />
          </>
        )}
      </body>
    </html>
  );
}

/**
 * PAYMENT_SANDBOX=on: nobody may take this shop for a real one (docs/payments.md, « The sandbox »).
 * Above the page (`relative z-10`): the heroes of the home page and of PageHeader pull themselves up
 * under the fixed header (-mt-header), and would otherwise paint over it.
 */
function DemoShopBanner({ text }: { text: string }) {
  return (
    <p
      role="note"
      className="relative z-10 bg-warning-tint px-4 py-2 text-center font-semibold text-warning-tint-foreground text-sm"
    >
      {text}
    </p>
  );
}

export default function App() {
  return <Outlet />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const location = useLocation();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFound />;
  // The back office's own error state: the session could not be read.
  if (isBackOffice(location.pathname)) return <AccessError detail={ACCESS_MESSAGES.permissionsError} />;

  const details = import.meta.env.DEV && error instanceof Error ? error.stack : undefined;
  return (
    <section className="mx-auto flex w-full max-w-2xl flex-1 flex-col items-start justify-center gap-5 px-4 py-16 sm:px-6">
      <p className="font-semibold text-sepia text-sm uppercase tracking-wider">
        {isRouteErrorResponse(error) ? `Erreur ${error.status}` : 'Erreur'}
      </p>
      <h1 className="text-title">Une erreur est survenue</h1>
      <p className="text-lg text-muted-foreground">Une erreur est survenue. Veuillez réessayer.</p>
      <div className="flex flex-wrap gap-3">
        {/* A plain link reloads the page from the server, which is what "réessayer" needs. */}
        <Button asChild>
          <a href={`${location.pathname}${location.search}`}>Réessayer</a>
        </Button>
        <Button asChild variant="outline">
          <Link to="/">Retour à l’accueil</Link>
        </Button>
      </div>
      {details ? (
        <pre className="w-full overflow-x-auto rounded-md bg-muted p-4 text-xs">
          <code>{details}</code>
        </pre>
      ) : null}
    </section>
  );
}

function NotFound() {
  return (
    <section className="mx-auto flex w-full max-w-2xl flex-1 flex-col items-start justify-center gap-5 px-4 py-16 sm:px-6">
      <p className="font-semibold text-sepia text-sm uppercase tracking-wider">Erreur 404</p>
      <h1 className="text-title">Page introuvable</h1>
      <p className="text-lg text-muted-foreground">
        La page que vous cherchez n’existe pas ou a été déplacée. Ces liens vous remettront sur la bonne voie&#8239;:
      </p>
      <ul className="flex flex-wrap gap-3">
        <li>
          <Button asChild>
            <Link to="/">Retour à l’accueil</Link>
          </Button>
        </li>
        <li>
          <Button asChild variant="outline">
            <Link to="/services">Nos prestations</Link>
          </Button>
        </li>
        <li>
          <Button asChild variant="outline">
            <Link to="/contact">Nous contacter</Link>
          </Button>
        </li>
      </ul>
    </section>
  );
}
