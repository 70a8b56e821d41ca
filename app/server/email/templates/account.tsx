import { z } from 'zod';
import { Action, EmailLayout, linkSchema, P } from './layout';
import type { TemplateDefinition } from './types';

const hello = (firstName?: string) => (firstName ? `Bonjour ${firstName},` : 'Bonjour,');

const welcomeSchema = z.object({
  firstName: z.string().trim().optional(),
  accountUrl: linkSchema.default('/profile'),
  /** Registration: the address confirmation's link, in this one e-mail rather than a second one. */
  confirmUrl: linkSchema.optional(),
  expiresInHours: z.number().int().positive().default(24),
});

/** What the address confirmation says of a link: its purpose, how long it lasts, and what if it was not you. */
function ConfirmAddress({ url, expiresInHours }: { url: string; expiresInHours: number }) {
  return (
    <>
      <Action href={url} label="Confirmer mon adresse e-mail" />
      <P small>{`Ce lien est valable ${expiresInHours} heures.`}</P>
      <P small>
        Si vous n'avez pas créé ce compte, ne cliquez pas : ignorez cet email. Vous pourrez toujours vous connecter par
        lien de connexion ou réinitialiser le mot de passe, ce qui écarte celui qu'un tiers aurait choisi.
      </P>
    </>
  );
}

/**
 * The account is created. At registration it also carries the address confirmation (one event,
 * one e-mail: a separate « Confirmez votre adresse » said the same thing seconds later).
 */
export const welcome: TemplateDefinition<typeof welcomeSchema> = {
  schema: welcomeSchema,
  // The confirmation link carries a token: encrypted while queued, wiped once sent.
  secretFields: ['confirmUrl'],
  sensitive: true,
  build: (data) => ({
    subject: data.confirmUrl ? 'Bienvenue chez Soovenirs : confirmez votre adresse e-mail' : 'Bienvenue chez Soovenirs',
    element: (
      <EmailLayout
        preview="Votre compte Soovenirs est prêt."
        heading={data.firstName ? `Bienvenue, ${data.firstName} !` : 'Bienvenue !'}
      >
        <P>
          Votre compte Soovenirs est créé. Depuis votre espace client, vous suivez vos commandes, retrouvez vos factures
          et vos devis enregistrés.
        </P>
        {data.confirmUrl ? (
          <>
            <P>Confirmez d'abord que cette adresse e-mail est bien la vôtre :</P>
            <ConfirmAddress url={data.confirmUrl} expiresInHours={data.expiresInHours} />
          </>
        ) : (
          <Action href={data.accountUrl} label="Accéder à mon compte" />
        )}
        <P>Pour estimer la numérisation de vos photos, films ou cassettes, utilisez notre configurateur en ligne.</P>
      </EmailLayout>
    ),
  }),
};

const passwordResetSchema = z.object({
  url: linkSchema,
  firstName: z.string().trim().optional(),
  expiresInMinutes: z.number().int().positive().default(60),
});

export const passwordReset: TemplateDefinition<typeof passwordResetSchema> = {
  schema: passwordResetSchema,
  // The link carries a sign-in token: encrypted while queued (sealed-data.server.ts).
  secretFields: ['url'],
  // The link signs its bearer in: wiped from the outbox once the message is done.
  sensitive: true,
  build: (data) => ({
    subject: 'Réinitialisation de votre mot de passe Soovenirs',
    element: (
      <EmailLayout
        preview="Choisissez un nouveau mot de passe pour votre compte."
        heading="Réinitialiser votre mot de passe"
      >
        <P>{hello(data.firstName)}</P>
        <P>
          Vous avez demandé à réinitialiser le mot de passe de votre compte Soovenirs. Cliquez sur le bouton ci-dessous
          pour en choisir un nouveau.
        </P>
        <Action href={data.url} label="Choisir un nouveau mot de passe" />
        <P small>{`Ce lien est valable ${data.expiresInMinutes} minutes et ne sert qu'une fois.`}</P>
        <P small>
          Si vous n'êtes pas à l'origine de cette demande, ignorez cet email : votre mot de passe reste inchangé.
        </P>
      </EmailLayout>
    ),
  }),
};

const magicLinkSchema = z.object({
  url: linkSchema,
  expiresInMinutes: z.number().int().positive().default(15),
});

export const magicLink: TemplateDefinition<typeof magicLinkSchema> = {
  schema: magicLinkSchema,
  // The link carries a sign-in token: encrypted while queued (sealed-data.server.ts).
  secretFields: ['url'],
  sensitive: true,
  build: (data) => ({
    subject: 'Votre lien de connexion à Soovenirs',
    element: (
      <EmailLayout preview="Connectez-vous à votre compte en un clic." heading="Votre lien de connexion">
        <P>Cliquez sur le bouton ci-dessous pour vous connecter à votre compte Soovenirs, sans mot de passe.</P>
        <Action href={data.url} label="Me connecter" />
        <P small>{`Ce lien est valable ${data.expiresInMinutes} minutes et ne sert qu'une fois.`}</P>
        <P small>Si vous n'avez pas demandé ce lien, ignorez cet email : votre compte reste protégé.</P>
      </EmailLayout>
    ),
  }),
};

const emailVerificationSchema = z.object({
  url: linkSchema,
  firstName: z.string().trim().optional(),
  expiresInHours: z.number().int().positive().default(24),
});

/**
 * Sent on request (« Renvoyer l’e-mail »); at registration the welcome e-mail carries the link.
 * Confirming proves the mailbox: a later
 * magic link then keeps the account's password. Someone may have registered with another person's
 * address: the message says so, and that ignoring it leaves the account unconfirmed.
 */
export const emailVerification: TemplateDefinition<typeof emailVerificationSchema> = {
  schema: emailVerificationSchema,
  // The link carries a sign-in token: encrypted while queued (sealed-data.server.ts).
  secretFields: ['url'],
  sensitive: true,
  build: (data) => ({
    subject: 'Confirmez votre adresse e-mail Soovenirs',
    element: (
      <EmailLayout preview="Un clic pour confirmer votre adresse e-mail." heading="Confirmez votre adresse e-mail">
        <P>{hello(data.firstName)}</P>
        <P>
          Un compte Soovenirs a été créé avec cette adresse. Cliquez sur le bouton ci-dessous pour confirmer qu'elle est
          bien la vôtre.
        </P>
        <ConfirmAddress url={data.url} expiresInHours={data.expiresInHours} />
      </EmailLayout>
    ),
  }),
};
