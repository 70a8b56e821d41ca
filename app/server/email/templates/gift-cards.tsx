import { Section } from '@react-email/section';
import { Text } from '@react-email/text';
import { z } from 'zod';
import { company } from '~/domain/company';
import { formatDateFr, formatEurosFromCents } from '~/domain/format';
import { renderGiftCardPdf } from '../../documents/gift-card-pdf';
import { Action, absoluteUrl, EmailLayout, emailStyles, linkSchema, P, Quote } from './layout';
import type { TemplateDefinition } from './types';

/*
 * The gift cards' e-mails. « gift-card » brings the card itself to whoever gives or receives it:
 * the code and the redeem link are worth the amount to whoever reads them (secret fields, sealed
 * in the outbox), and the printable PDF is attached. « gift-card-copy » tells the buyer that the
 * card left for its recipient, and « gift-card-expiring » reminds the holder of the balance before
 * the last day: both show the code masked (its last 4 characters), never the code itself.
 */

const isoDate = z.iso.datetime({ offset: true });
const name = z.string().trim().min(1);
/** 'XXXX-XXXX-XXXX-XXXX', letters and digits. */
const giftCardCode = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[0-9A-Z]{4}(-[0-9A-Z]{4}){3}$/, { error: 'expected a code XXXX-XXXX-XXXX-XXXX' });
/** '••••-••••-••••-AB12': only the last 4 characters, so that the e-mail cannot be used as the card. */
const maskedCode = z
  .string()
  .trim()
  .regex(/^(•{4}-){3}[0-9A-Z]{4}$/i, { error: 'expected a masked code ••••-••••-••••-XXXX' });
/** The buyer's message as typed; null when they wrote none. */
const message = z.string().nullable();

/** The code, large and apart, easy to read and to copy. */
function CodeBox({ code, label = 'Code de la carte cadeau' }: { code: string; label?: string }) {
  return (
    <Section style={{ border: '1px solid #e6e0d8', borderRadius: '6px', margin: '0 0 16px', padding: '12px 16px' }}>
      <Text style={{ ...emailStyles.small, margin: '0 0 4px' }}>{label}</Text>
      <Text
        style={{
          ...emailStyles.paragraph,
          fontFamily: 'Menlo, Consolas, "Courier New", monospace',
          fontSize: '22px',
          fontWeight: 700,
          letterSpacing: '1px',
          lineHeight: '30px',
          margin: 0,
        }}
      >
        {code}
      </Text>
    </Section>
  );
}

/** Their words, when there are some: « Son message : » and the text as typed. */
function Message({ text, intro }: { text: string | null; intro: string }) {
  if (!text?.trim()) return null;
  return (
    <>
      <P>{intro}</P>
      <Quote>{text.trim()}</Quote>
    </>
  );
}

const giftCardSchema = z.object({
  code: giftCardCode,
  amountCents: z.number().int().positive(),
  recipientName: name,
  buyerName: name,
  message,
  expiresAt: isoDate,
  /** The shop's page that takes the code (a path or an absolute URL); it carries the code: secret. */
  redeemUrl: linkSchema,
  /** The buyer chose to print the card and give it themselves: the e-mail goes to them. */
  printedByBuyer: z.boolean(),
});

export const giftCard: TemplateDefinition<typeof giftCardSchema> = {
  schema: giftCardSchema,
  // Whoever reads them can spend the card.
  secretFields: ['code', 'redeemUrl'],
  attachments: async (data) => [
    {
      filename: 'carte-cadeau-soovenirs.pdf',
      contentType: 'application/pdf',
      content: await renderGiftCardPdf({
        code: data.code,
        amountCents: data.amountCents,
        recipientName: data.recipientName,
        buyerName: data.buyerName,
        message: data.message,
        expiresAt: new Date(data.expiresAt),
        redeemUrl: absoluteUrl(data.redeemUrl),
      }),
    },
  ],
  build: (data) => {
    const amount = formatEurosFromCents(data.amountCents);
    const day = formatDateFr(data.expiresAt);
    if (data.printedByBuyer) {
      return {
        subject: `Votre carte cadeau Soovenirs de ${amount}`,
        element: (
          <EmailLayout
            preview={`Votre carte cadeau de ${amount} pour ${data.recipientName}, prête à imprimer.`}
            heading="Votre carte cadeau est prête"
          >
            <P>{`Bonjour ${data.buyerName},`}</P>
            <P>
              {`Voici la carte cadeau Soovenirs de ${amount} que vous offrez à ${data.recipientName}. Elle est jointe à cet e-mail au format PDF : imprimez-la et offrez-la.`}
            </P>
            <Message text={data.message} intro="Votre message, imprimé sur la carte :" />
            <CodeBox code={data.code} />
            <P>{`Montant : ${amount}. Valable jusqu’au ${day}.`}</P>
            <P>
              {`Pour l’utiliser, ${data.recipientName} saisit ce code au moment de payer sa commande sur ${company.domain}, ou scanne le QR code de la carte.`}
            </P>
            <Action href={data.redeemUrl} label="Utiliser la carte cadeau" />
            <P small>
              Ce code vaut de l’argent : toute personne qui le connaît peut l’utiliser. Ne le transmettez qu’à la
              personne à qui vous l’offrez.
            </P>
          </EmailLayout>
        ),
      };
    }
    return {
      subject: `${data.buyerName} vous offre une carte cadeau Soovenirs de ${amount}`,
      element: (
        <EmailLayout
          preview={`Une carte cadeau de ${amount} pour faire numériser vos souvenirs.`}
          heading={`${data.buyerName} vous offre une carte cadeau`}
        >
          <P>{`Bonjour ${data.recipientName},`}</P>
          <P>
            {`${data.buyerName} vous offre une carte cadeau Soovenirs de ${amount} : de quoi faire numériser vos photos, diapositives, films ou cassettes.`}
          </P>
          <Message text={data.message} intro="Son message :" />
          <CodeBox code={data.code} />
          <P>{`Montant : ${amount}. Valable jusqu’au ${day}.`}</P>
          <P>
            {`Pour l’utiliser, saisissez ce code au moment de payer votre commande sur ${company.domain}, ou suivez ce lien :`}
          </P>
          <Action href={data.redeemUrl} label="Utiliser ma carte cadeau" />
          <P small>
            La carte est aussi jointe à cet e-mail au format PDF, à imprimer si vous le souhaitez. Gardez ce code pour
            vous : toute personne qui le connaît peut l’utiliser.
          </P>
        </EmailLayout>
      ),
    };
  },
};

const giftCardCopySchema = z.object({
  maskedCode,
  amountCents: z.number().int().positive(),
  recipientName: name,
  recipientEmail: z.email(),
  buyerName: name,
  message,
  sentAt: isoDate,
  expiresAt: isoDate,
  /** Where the buyer finds their gift cards. */
  accountUrl: linkSchema,
});

export const giftCardCopy: TemplateDefinition<typeof giftCardCopySchema> = {
  schema: giftCardCopySchema,
  build: (data) => {
    const amount = formatEurosFromCents(data.amountCents);
    return {
      subject: `Votre carte cadeau pour ${data.recipientName} est partie`,
      element: (
        <EmailLayout
          preview={`Votre carte cadeau de ${amount} a été envoyée à ${data.recipientName}.`}
          heading={`Votre carte cadeau pour ${data.recipientName} est partie`}
        >
          <P>{`Bonjour ${data.buyerName},`}</P>
          <P>
            {`Votre carte cadeau Soovenirs de ${amount} a été envoyée à ${data.recipientName} le ${formatDateFr(data.sentAt)}, à l’adresse ${data.recipientEmail}.`}
          </P>
          <Message text={data.message} intro="Votre message :" />
          <CodeBox code={data.maskedCode} label="Code de la carte (masqué)" />
          <P>{`Elle est valable jusqu’au ${formatDateFr(data.expiresAt)}.`}</P>
          <P small>
            {`Par sécurité, le code complet ne figure que dans l’e-mail de ${data.recipientName}. S’il n’est pas arrivé, invitez ${data.recipientName} à regarder dans ses courriers indésirables, ou répondez à cet e-mail : nous vous aiderons.`}
          </P>
          <Action href={data.accountUrl} label="Voir mes cartes cadeaux" />
        </EmailLayout>
      ),
    };
  },
};

const giftCardExpiringSchema = z.object({
  maskedCode,
  balanceCents: z.number().int().positive(),
  expiresAt: isoDate,
  shopUrl: linkSchema,
  recipientName: z.string().trim(),
});

export const giftCardExpiring: TemplateDefinition<typeof giftCardExpiringSchema> = {
  schema: giftCardExpiringSchema,
  build: (data) => {
    const day = formatDateFr(data.expiresAt);
    const balance = formatEurosFromCents(data.balanceCents);
    return {
      subject: `Votre carte cadeau Soovenirs expire le ${day}`,
      element: (
        <EmailLayout
          preview={`Il vous reste ${balance} à utiliser avant le ${day}.`}
          heading="Votre carte cadeau expire bientôt"
        >
          <P>{data.recipientName ? `Bonjour ${data.recipientName},` : 'Bonjour,'}</P>
          <P>
            {`Il reste ${balance} sur votre carte cadeau Soovenirs. Elle est valable jusqu’au ${day} : après cette date, ce montant ne pourra plus être utilisé.`}
          </P>
          <CodeBox code={data.maskedCode} label="Votre carte cadeau" />
          <P>
            {`Pour l’utiliser, saisissez son code au moment de payer votre commande sur ${company.domain} : photos, diapositives, films ou cassettes, c’est le moment de les faire numériser.`}
          </P>
          <Action href={data.shopUrl} label="Commander sur Soovenirs" />
          <P small>
            Vous ne retrouvez pas le code complet ? Il figure dans l’e-mail de la carte cadeau et sur la carte
            imprimable. Sinon, répondez à cet e-mail : nous vous aiderons.
          </P>
        </EmailLayout>
      ),
    };
  },
};
