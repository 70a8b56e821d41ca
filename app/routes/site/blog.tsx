import { data, Link } from 'react-router';
import { CallToAction } from '~/components/site/call-to-action';
import { JsonLd } from '~/components/site/json-ld';
import { PageHeader } from '~/components/site/page-header';
import { PostCard } from '~/components/site/post-card';
import { cn } from '~/components/ui/cn';
import { pageCacheHeaders, publicPageHeaders } from '~/domain/content/cache-control';
import { breadcrumbList, seoMeta } from '~/domain/content/seo';
import { frenchProse as fr, slugify } from '~/domain/content/typography';
import { siteOrigin } from '~/server/content/site.server';
import { contentSource, localContentSource } from '~/server/content/source.server';
import type { Route } from './+types/blog';

export const headers = publicPageHeaders;

const CRUMBS = [
  { name: 'Accueil', path: '/' },
  { name: 'Blog', path: '/blog' },
];

export function meta({ loaderData }: Route.MetaArgs) {
  return seoMeta({
    title: 'Blog : conseils pour numériser et conserver vos souvenirs',
    description: fr(
      'Résolution idéale, vieillissement des cassettes VHS, diapositives et négatifs : les conseils de notre atelier pour sauver vos photos et vos films.',
    ),
    path: '/blog',
    origin: loaderData?.origin ?? '',
  });
}

export async function loader({ request }: Route.LoaderArgs) {
  const category = new URL(request.url).searchParams.get('categorie') ?? undefined;
  const source = contentSource();
  const [posts, categories, resources] = await Promise.all([
    source.getPosts({ limit: 50, category }),
    source.getCategories().catch(() => []),
    // The CMS may have no such menu: the local one stands in.
    source
      .getMenu('ressources')
      .catch(() => null)
      .then((menu) => menu ?? localContentSource().getMenu('ressources')),
  ]);
  const origin = siteOrigin();
  return data(
    {
      origin,
      posts,
      categories,
      category: category ?? null,
      resources: resources?.items ?? [],
      structuredData: breadcrumbList(origin, CRUMBS),
    },
    { headers: pageCacheHeaders(request) },
  );
}

export default function Blog({ loaderData }: Route.ComponentProps) {
  const { posts, categories, category, resources, structuredData } = loaderData;
  return (
    <>
      <PageHeader
        crumbs={CRUMBS}
        kicker="Le blog"
        title="Conseils pour vos souvenirs"
        intro={
          <p>
            {fr(
              'Ce que nous apprenons chaque jour à l’atelier : comment choisir une résolution, pourquoi une cassette s’abîme, comment ranger des négatifs. Des articles pour décider en connaissance de cause.',
            )}
          </p>
        }
      />
      <div className="mx-auto w-full max-w-7xl px-4 pb-16 sm:px-6 lg:px-8">
        {categories.length > 1 ? (
          <nav aria-label="Catégories du blog" className="mb-8">
            <ul className="flex flex-wrap gap-2">
              <li>
                <CategoryLink to="/blog" active={!category} label="Tous les articles" />
              </li>
              {categories.map((c) => (
                <li key={c.slug}>
                  <CategoryLink
                    to={`/blog?categorie=${c.slug}`}
                    active={category !== null && slugify(category) === c.slug}
                    label={`${c.name} (${c.count})`}
                  />
                </li>
              ))}
            </ul>
          </nav>
        ) : null}
        {posts.length > 0 ? (
          <ul className="grid gap-6 md:grid-cols-2 lg:grid-cols-3">
            {posts.map((post, index) => (
              <li key={post.id}>
                <PostCard post={post} headingLevel={2} priority={index === 0} />
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-lg text-muted-foreground">Aucun article dans cette catégorie pour le moment.</p>
        )}
        {resources.length > 0 ? (
          <nav aria-labelledby="ressources-titre" className="mt-14 rounded-xl border border-border bg-card p-6">
            <h2 id="ressources-titre" className="mb-4 font-heading text-2xl">
              Pour aller plus loin
            </h2>
            <ul className="grid gap-2 sm:grid-cols-2 lg:grid-cols-3">
              {resources
                .filter((item) => item.path !== '/blog')
                .map((item) => (
                  <li key={item.path}>
                    <Link to={item.path} className="font-medium text-primary underline-offset-4 hover:underline">
                      {item.title}
                    </Link>
                  </li>
                ))}
            </ul>
          </nav>
        ) : null}
      </div>
      <CallToAction
        title="Passer de la lecture à la pratique"
        text={fr('Estimez la numérisation de vos photos, films et cassettes : le prix s’affiche tout de suite.')}
      />
      <JsonLd data={structuredData} />
    </>
  );
}

function CategoryLink({ to, active, label }: { to: string; active: boolean; label: string }) {
  return (
    <Link
      to={to}
      aria-current={active ? 'page' : undefined}
      className={cn(
        'inline-flex min-h-10 items-center rounded-full border px-4 text-sm transition-colors',
        active ? 'border-primary bg-primary text-primary-foreground' : 'border-input bg-card hover:bg-muted',
      )}
    >
      {label}
    </Link>
  );
}
