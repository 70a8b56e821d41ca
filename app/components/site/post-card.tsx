import { Link } from 'react-router';
import type { PostSummary } from '~/domain/content/types';
import { formatLongDate } from './dates';

/** A post in a list: illustration, category, title (a link covering the card), excerpt, date. */
export function PostCard({
  post,
  headingLevel = 3,
  priority = false,
}: {
  post: PostSummary;
  headingLevel?: 2 | 3;
  /** The first card of a list at the top of a page: its picture is the page's largest paint. */
  priority?: boolean;
}) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <article className="group relative flex h-full flex-col overflow-hidden rounded-xl border border-border bg-card shadow-sm transition-shadow focus-within:shadow-md hover:shadow-md">
      {post.thumbnail ? (
        <img
          src={post.thumbnail.url}
          alt=""
          width={post.thumbnail.width}
          height={post.thumbnail.height}
          loading={priority ? 'eager' : 'lazy'}
          fetchPriority={priority ? 'high' : 'auto'}
          decoding={priority ? 'sync' : 'async'}
          className="aspect-video h-auto w-full bg-muted object-cover"
        />
      ) : null}
      <div className="flex flex-1 flex-col gap-3 p-5">
        {post.categories[0] ? (
          <p className="font-semibold text-sepia text-xs uppercase tracking-wider">{post.categories[0]}</p>
        ) : null}
        <Heading className="font-heading font-semibold text-xl leading-snug">
          <Link
            to={`/blog/${post.slug}`}
            className="rounded-sm after:absolute after:inset-0 after:content-[''] focus-visible:outline-none group-focus-within:underline"
          >
            {post.title}
          </Link>
        </Heading>
        <p className="flex-1 text-muted-foreground text-sm">{post.excerpt}</p>
        <p className="text-muted-foreground text-xs">
          <time dateTime={post.date}>{formatLongDate(post.date)}</time> · {post.readingMinutes}
          {'\u00A0'}min de lecture
        </p>
      </div>
    </article>
  );
}
