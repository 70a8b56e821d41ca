import { useNonce } from '~/components/nonce';
import { type JsonLd as JsonLdData, serializeJsonLd } from '~/domain/content/seo';

let documentNonce: string | undefined;

/**
 * The response's CSP nonce: from the request on the server, from the document in the browser
 * (browsers hide the attribute but keep the `nonce` property), so that hydration matches.
 */
function useScriptNonce(): string {
  const serverNonce = useNonce();
  if (typeof document === 'undefined') return serverNonce;
  documentNonce ??= document.querySelector<HTMLElement>('script[nonce]')?.nonce ?? '';
  return documentNonce;
}

/** schema.org structured data of the page, as a JSON-LD script carrying the CSP nonce. */
export function JsonLd({ data }: { data: JsonLdData | readonly JsonLdData[] }) {
  const nonce = useScriptNonce();
  return (
    <script
      type="application/ld+json"
      nonce={nonce}
      suppressHydrationWarning
      // biome-ignore lint/security/noDangerouslySetInnerHtml: serialised JSON with <, > and & escaped
      dangerouslySetInnerHTML={{ __html: serializeJsonLd(data) }}
    />
  );
}
