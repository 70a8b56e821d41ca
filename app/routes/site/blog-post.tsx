import { CalendarIcon, ClockIcon, UserRoundIcon } from 'lucide-react';
import { data, Link } from 'react-router';
import { CallToAction } from '~/components/site/call-to-action';
import { formatLongDate } from '~/components/site/dates';
import { JsonLd } from '~/components/site/json-ld';
import { PageHeader } from '~/components/site/page-header';
import { PostCard } from '~/components/site/post-card';
import { Prose } from '~/components/site/prose';
import { pageCacheHeaders, publicPageHeaders } from '~/domain/content/cache-control';
import { blogPosting, breadcrumbList, seoMeta } from '~/domain/content/seo';
import { fillPricePlaceholders } from '~/domain/content/service-prices';
import { frenchProse as fr } from '~/domain/content/typography';
import { loadPriceList, siteOrigin } from '~/server/content/site.server';
import { contentSource } from '~/server/content/source.server';
import type { Route } from './+types/blog-post';

export const headers = publicPageHeaders;

export function meta({ loaderData }: Route.MetaArgs) {
  if (!loaderData) return [{ title: 'Page introuvable | Soovenirs' }, { name: 'robots', content: 'noindex' }];
  const { post, origin } = loaderData;
  return seoMeta({
    title: post.title,
    description: post.description,
    path: `/blog/${post.slug}`,
    origin,
    type: 'article',
    publishedTime: post.date,
    modifiedTime: post.modified,
    image: post.thumbnail?.url.endsWith('.png')
      ? {
          path: post.thumbnail.url,
          width: post.thumbnail.width,
          height: post.thumbnail.height,
          alt: post.thumbnail.alt,
        }
      : undefined,
  });
}

export async function loader({ request, params }: Route.LoaderArgs) {
  const source = contentSource();
  const post = await source.getPost(params.slug);
  if (!post) throw data(null, { status: 404 });
  const [priceList, others] = await Promise.all([loadPriceList(), source.getPosts({ limit: 4 })]);
  const origin = siteOrigin();
  const crumbs = [
    { name: 'Accueil', path: '/' },
    { name: 'Blog', path: '/blog' },
    { name: post.title, path: `/blog/${post.slug}` },
  ];
  return data(
    {
      origin,
      crumbs,
      post: { ...post, html: fillPricePlaceholders(post.html, priceList) },
      related: others.filter((other) => other.slug !== post.slug).slice(0, 3),
      structuredData: [blogPosting(origin, post), breadcrumbList(origin, crumbs)],
    },
    { headers: pageCacheHeaders(request) },
  );
}

export default function BlogPost({ loaderData }: Route.ComponentProps) {
  const { post, crumbs, related, structuredData } = loaderData;
  return (
    <>
      <article>
        <PageHeader
          crumbs={crumbs}
          kicker={post.categories[0]}
          title={post.title}
          intro={
            <div className="flex flex-col gap-4">
              <p>{post.excerpt}</p>
              <ul className="flex flex-wrap gap-x-5 gap-y-2 text-sm">
                <li className="flex items-center gap-1.5">
                  <UserRoundIcon className="size-4" aria-hidden="true" />
                  {post.author}
                </li>
                <li className="flex items-center gap-1.5">
                  <CalendarIcon className="size-4" aria-hidden="true" />
                  <span>
                    Publié le <time dateTime={post.date}>{formatLongDate(post.date)}</time>
                  </span>
                </li>
                <li className="flex items-center gap-1.5">
                  <ClockIcon className="size-4" aria-hidden="true" />
                  {post.readingMinutes}
                  {'\u00A0'}min de lecture
                </li>
              </ul>
            </div>
          }
        />
        <div className="mx-auto w-full max-w-3xl px-4 pb-16 sm:px-6">
          {post.thumbnail ? (
            <img
              src={post.thumbnail.url}
              alt={post.thumbnail.alt}
              width={post.thumbnail.width}
              height={post.thumbnail.height}
              fetchPriority="high"
              className="mb-10 aspect-video h-auto w-full rounded-xl bg-muted object-cover"
            />
          ) : null}
          <Prose html={post.html} className="text-lg" />
          {post.modified && post.modified.slice(0, 10) !== post.date.slice(0, 10) ? (
            <p className="mt-10 text-muted-foreground text-sm">
              Mis à jour le <time dateTime={post.modified}>{formatLongDate(post.modified)}</time>.
            </p>
          ) : null}
          {post.tags.length > 0 ? (
            <ul className="mt-8 flex flex-wrap gap-2" aria-label="Mots-clés">
              {post.tags.map((tag) => (
                <li key={tag} className="rounded-full bg-secondary px-3 py-1 text-sm">
                  {tag}
                </li>
              ))}
            </ul>
          ) : null}
          <p className="mt-10">
            <Link to="/blog" className="font-medium text-primary underline underline-offset-4 hover:text-sepia">
              Retour à tous les articles du blog
            </Link>
          </p>
        </div>
      </article>
      {related.length > 0 ? (
        <section aria-labelledby="a-lire-aussi" className="bg-muted">
          <div className="mx-auto max-w-7xl px-4 py-16 sm:px-6 lg:px-8">
            <h2 id="a-lire-aussi" className="mb-8 text-title">
              À lire aussi
            </h2>
            <ul className="grid gap-6 md:grid-cols-3">
              {related.map((other) => (
                <li key={other.id}>
                  <PostCard post={other} />
                </li>
              ))}
            </ul>
          </div>
        </section>
      ) : null}
      <CallToAction
        title={fr('Et vos souvenirs à vous ?')}
        text={fr('Estimez leur numérisation en deux minutes : le prix s’affiche au fur et à mesure.')}
      />
      <JsonLd data={structuredData} />
    </>
  );
}
