import { useEffect, useRef } from 'react';
import { useFetcher } from 'react-router';
import { Prose } from '~/components/site/prose';
import { Button } from '~/components/ui/button';
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '~/components/ui/dialog';
import { NBSP } from '~/domain/format';
import { TERMS_VERSION, termsVersionNotice } from '~/domain/terms';

/** What the dialog reads of the /cgv page's loader data (routes/site/content-page.tsx). */
interface TermsPageData {
  page: { title: string; modified: string; html: string };
}

interface TermsDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** "J'ai lu et j'accepte": ticks the registration form's box. */
  onAccept: () => void;
}

/**
 * The general terms of sale, as the registration form offers them: the whole /cgv text, loaded from
 * that page's own loader when the dialog first opens (one Markdown file, content/pages/cgv.md, one
 * rendering: no second copy to drift), under its version date. The link opens the page itself.
 */
export function TermsDialog({ open, onOpenChange, onAccept }: TermsDialogProps) {
  const fetcher = useFetcher<TermsPageData>();
  const { state, data, load } = fetcher;
  // Asked once: a failed load is not retried in a loop (the link to the page stays).
  const requested = useRef(false);
  useEffect(() => {
    if (!open || requested.current) return;
    requested.current = true;
    load('/cgv');
  }, [open, load]);
  const page = data?.page;
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-2xl">
        <DialogHeader>
          <DialogTitle>Conditions générales de vente</DialogTitle>
          <DialogDescription>
            {termsVersionNotice(page?.modified ?? TERMS_VERSION)} ·{' '}
            <a href="/cgv" target="_blank" rel="noopener" className="text-primary underline underline-offset-4">
              ouvrir la page des conditions générales de vente
            </a>
          </DialogDescription>
        </DialogHeader>
        {/* A scrolling text: focusable so that the keyboard can scroll it too. */}
        <section
          aria-label="Texte des conditions générales de vente"
          aria-busy={!page}
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable from the keyboard
          tabIndex={0}
          className="max-h-[55dvh] overflow-y-auto rounded-md pr-1 text-sm"
        >
          {page ? (
            <Prose html={page.html} className="text-sm [&_h2]:mt-6 [&_h2]:text-lg [&_h3]:mt-4 [&_h3]:text-base" />
          ) : (
            <p className="text-muted-foreground">
              {state === 'idle'
                ? `Le texte n’a pas pu être chargé${NBSP}: ouvrez la page ci-dessus.`
                : 'Chargement du texte…'}
            </p>
          )}
        </section>
        <DialogFooter>
          <DialogClose asChild>
            <Button variant="outline">Fermer</Button>
          </DialogClose>
          <Button onClick={onAccept}>J'ai lu et j'accepte</Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
