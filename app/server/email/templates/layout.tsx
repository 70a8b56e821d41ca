import { Body } from '@react-email/body';
import { Button } from '@react-email/button';
import { Container } from '@react-email/container';
import { Head } from '@react-email/head';
import { Heading } from '@react-email/heading';
import { Hr } from '@react-email/hr';
import { Html } from '@react-email/html';
import { Link } from '@react-email/link';
import { Preview } from '@react-email/preview';
import { Section } from '@react-email/section';
import { Text } from '@react-email/text';
import { type CSSProperties, Fragment, type ReactNode } from 'react';
import { z } from 'zod';
import { company as SHOP_IDENTITY } from '~/domain/company';
import { frenchTypography } from '~/domain/format';
import { baseUrl } from '../../env.server';

/*
 * The frame of every e-mail: French, one column of 600 px at most that shrinks on a phone, inline
 * styles (mail clients ignore style sheets), no remote image (many clients block them), and the
 * shop's identity in the footer.
 */

const colors = { ink: '#1f2a30', muted: '#5b6770', accent: '#8a4b2a', line: '#e6e0d8', paper: '#faf7f2' };

const styles = {
  body: { backgroundColor: colors.paper, fontFamily: 'Helvetica, Arial, sans-serif', margin: 0, padding: '24px 0' },
  container: {
    backgroundColor: '#ffffff',
    border: `1px solid ${colors.line}`,
    borderRadius: '8px',
    margin: '0 auto',
    maxWidth: '600px',
    padding: '32px 24px',
    width: '100%',
  },
  brand: { color: colors.accent, fontFamily: 'Georgia, serif', fontSize: '24px', fontWeight: 700, margin: '0 0 8px' },
  heading: { color: colors.ink, fontSize: '22px', lineHeight: '30px', margin: '16px 0' },
  paragraph: { color: colors.ink, fontSize: '15px', lineHeight: '24px', margin: '0 0 16px' },
  small: { color: colors.muted, fontSize: '13px', lineHeight: '20px', margin: '0 0 12px' },
  button: {
    backgroundColor: colors.accent,
    borderRadius: '6px',
    color: '#ffffff',
    display: 'inline-block',
    fontSize: '15px',
    fontWeight: 600,
    padding: '12px 20px',
    textDecoration: 'none',
  },
  footer: { color: colors.muted, fontSize: '12px', lineHeight: '18px', margin: '0', textAlign: 'center' },
  hr: { borderColor: colors.line, margin: '24px 0' },
  quote: {
    borderLeft: `3px solid ${colors.line}`,
    color: colors.ink,
    fontSize: '14px',
    lineHeight: '22px',
    margin: '0 0 16px',
    padding: '4px 12px',
    whiteSpace: 'pre-wrap',
  },
} satisfies Record<string, CSSProperties>;

export { styles as emailStyles };

/** A link of an e-mail: an absolute http(s) URL, or a path of the shop resolved against BASE_URL when sent. */
export const linkSchema = z
  .string()
  .min(1)
  .refine((v) => /^https?:\/\//i.test(v) || (v.startsWith('/') && !v.startsWith('//')), {
    error: 'expected an http(s) URL or a path starting with /',
  });

export function absoluteUrl(link: string): string {
  return new URL(link, `${baseUrl()}/`).toString();
}

/** French prose: strings get French typography; elements pass through. */
function prose(children: ReactNode): ReactNode {
  return typeof children === 'string' ? frenchTypography(children) : children;
}

export function P({ children, small = false }: { children: ReactNode; small?: boolean }) {
  return <Text style={small ? styles.small : styles.paragraph}>{prose(children)}</Text>;
}

/**
 * Free text as typed, line by line: each line break becomes a <br>, so that the text part (made
 * from the HTML) keeps it too, which `white-space` alone did not.
 */
export function Lines({ text }: { text: string }) {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  return (
    <>
      {lines.map((line, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the lines of one text, in their order
        <Fragment key={index}>
          {index > 0 ? <br /> : null}
          {line}
        </Fragment>
      ))}
    </>
  );
}

/** Text written by someone else (a customer's message): shown as typed, line breaks kept. */
export function Quote({ children }: { children: string }) {
  return (
    <Text style={styles.quote}>
      <Lines text={children} />
    </Text>
  );
}

/** A call to action, with the address spelled out below for clients that do not show buttons. */
export function Action({ href, label }: { href: string; label: string }) {
  const url = absoluteUrl(href);
  return (
    <Section style={{ margin: '8px 0 24px' }}>
      <Button href={url} style={styles.button}>
        {label}
      </Button>
      {/* The text version already shows the address next to the button's label. */}
      <Text style={styles.small} data-skip-in-text="true">
        {frenchTypography('Si le bouton ne fonctionne pas, copiez ce lien dans votre navigateur :')}{' '}
        <Link href={url} style={{ color: colors.accent, wordBreak: 'break-all' }}>
          {url}
        </Link>
      </Text>
    </Section>
  );
}

function Footer() {
  const shop = SHOP_IDENTITY;
  return (
    <Section>
      <Text style={styles.footer}>{`${shop.legalName} · ${shop.street}, ${shop.postalCode} ${shop.city}`}</Text>
      <Text style={styles.footer}>
        {`${shop.phone} · `}
        <Link href={`mailto:${shop.email}`} style={{ color: colors.muted }}>
          {shop.email}
        </Link>
        {` · SIREN ${shop.siren}`}
      </Text>
    </Section>
  );
}

export function EmailLayout({ preview, heading, children }: { preview: string; heading: string; children: ReactNode }) {
  return (
    <Html lang="fr" dir="ltr">
      <Head>
        {/* Readable on a phone: without it some clients show the 600 px column at 40 %. */}
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light" />
      </Head>
      <Preview>{frenchTypography(preview)}</Preview>
      <Body style={styles.body}>
        <Container style={styles.container}>
          <Text style={styles.brand}>{SHOP_IDENTITY.brand}</Text>
          <Heading as="h1" style={styles.heading}>
            {frenchTypography(heading)}
          </Heading>
          {children}
          <Hr style={styles.hr} />
          <Footer />
        </Container>
      </Body>
    </Html>
  );
}
