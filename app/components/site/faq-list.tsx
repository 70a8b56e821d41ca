import { ChevronDownIcon } from 'lucide-react';

export interface FaqEntry {
  id: string;
  question: string;
  answerHtml: string;
}

/**
 * Questions that fold open, built on <details>: they work without JavaScript, and the browser's
 * find-in-page opens the answer that matches.
 */
export function FaqList({ items, headingLevel = 3 }: { items: readonly FaqEntry[]; headingLevel?: 2 | 3 }) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <div className="divide-y divide-border rounded-xl border border-border bg-card">
      {items.map((item) => (
        <details key={item.id} id={item.id} className="group scroll-mt-header">
          <summary className="flex list-none items-center justify-between gap-4 px-5 py-4 [&::-webkit-details-marker]:hidden">
            <Heading className="font-sans font-semibold text-base">{item.question}</Heading>
            <ChevronDownIcon
              className="size-5 shrink-0 text-muted-foreground transition-transform group-open:rotate-180"
              aria-hidden="true"
            />
          </summary>
          <div
            className="px-5 pb-5 text-muted-foreground [&_a]:font-medium [&_a]:text-primary [&_a]:underline [&_a]:underline-offset-4 [&_li]:mt-1 [&_p+p]:mt-3 [&_ul]:mt-2 [&_ul]:list-disc [&_ul]:pl-5"
            // biome-ignore lint/security/noDangerouslySetInnerHtml: answers are our Markdown, or sanitised WordPress HTML
            dangerouslySetInnerHTML={{ __html: item.answerHtml }}
          />
        </details>
      ))}
    </div>
  );
}
