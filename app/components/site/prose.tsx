import { cn } from '../ui/cn';

/*
 * Typography of HTML that comes from the content (Markdown or WordPress): headings, paragraphs,
 * lists, quotes, tables and links, in the site's styles.
 */
const proseClass = [
  'text-base leading-relaxed text-foreground',
  '[&>*:first-child]:mt-0',
  '[&_h2]:mt-12 [&_h2]:mb-4 [&_h2]:font-heading [&_h2]:text-2xl [&_h2]:scroll-mt-24',
  '[&_h3]:mt-8 [&_h3]:mb-3 [&_h3]:font-heading [&_h3]:text-xl [&_h3]:scroll-mt-24',
  '[&_h4]:mt-6 [&_h4]:mb-2 [&_h4]:font-semibold [&_h4]:font-sans [&_h4]:text-base',
  '[&_p]:my-4',
  '[&_ul]:my-4 [&_ul]:list-disc [&_ul]:space-y-2 [&_ul]:pl-6',
  '[&_ol]:my-4 [&_ol]:list-decimal [&_ol]:space-y-2 [&_ol]:pl-6',
  '[&_li::marker]:text-sepia',
  '[&_a]:font-medium [&_a]:text-primary [&_a]:underline [&_a]:underline-offset-4 [&_a:hover]:text-sepia',
  '[&_strong]:font-semibold',
  '[&_blockquote]:my-6 [&_blockquote]:border-accent [&_blockquote]:border-l-4 [&_blockquote]:bg-muted [&_blockquote]:px-5 [&_blockquote]:py-3 [&_blockquote]:italic',
  '[&_hr]:my-10 [&_hr]:border-border',
  '[&_.table-scroll]:my-6 [&_.table-scroll]:overflow-x-auto [&_.table-scroll]:rounded-lg [&_.table-scroll]:border [&_.table-scroll]:border-border',
  '[&_table]:w-full [&_table]:border-collapse [&_table]:bg-card [&_table]:text-sm',
  '[&_th]:border-border [&_th]:border-b [&_th]:bg-muted [&_th]:px-4 [&_th]:py-2 [&_th]:text-left [&_th]:font-semibold',
  '[&_td]:border-border [&_td]:border-b [&_td]:px-4 [&_td]:py-2 [&_td]:align-top',
  '[&_img]:my-6 [&_img]:h-auto [&_img]:max-w-full [&_img]:rounded-lg',
  '[&_code]:rounded [&_code]:bg-muted [&_code]:px-1 [&_code]:text-sm',
].join(' ');

export function Prose({ html, className, lang }: { html: string; className?: string; lang?: 'fr' | 'en' }) {
  return (
    <div
      className={cn(proseClass, 'max-w-none', className)}
      lang={lang === 'en' ? 'en' : undefined}
      // biome-ignore lint/security/noDangerouslySetInnerHtml: our Markdown, or WordPress HTML passed through sanitizeHtml
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}
