import { Column } from '@react-email/column';
import { Link } from '@react-email/link';
import { Row } from '@react-email/row';
import { Section } from '@react-email/section';
import { z } from 'zod';
import { frenchTypography } from '~/domain/format';
import { trackingUrl } from '~/domain/shipping/tracking';
import { DeliveredFiles, deliveredFilesFields } from './files';
import { Action, EmailLayout, emailStyles, linkSchema, P } from './layout';
import type { TemplateDefinition } from './types';

/*
 * The e-mails of the originals' journey: the parcel arrived at the workshop (with what
 * was counted), the files are ready, the order is shipped (with its tracking link). A guest's link
 * carries the order's access token, so it is stored sealed (secretFields).
 */

const orderNumber = z.string().trim().min(1);
const hello = (name?: string) => (name ? `Bonjour ${name},` : 'Bonjour,');
const cell = { ...emailStyles.paragraph, margin: '0', padding: '6px 0' };
const numberCell = { ...cell, textAlign: 'right' as const, whiteSpace: 'nowrap' as const };

const originalsReceivedSchema = z.object({
  orderNumber,
  customerName: z.string().trim().optional(),
  orderUrl: linkSchema,
  counts: z
    .array(
      z.object({
        label: z.string().min(1),
        ordered: z.number().int().nonnegative(),
        counted: z.number().int().nonnegative(),
      }),
    )
    .default([]),
  remarks: z.array(z.object({ group: z.string().default(''), text: z.string().min(1) })).default([]),
});

function CountsTable({ counts }: { counts: z.output<typeof originalsReceivedSchema>['counts'] }) {
  return (
    <Section style={{ margin: '0 0 16px' }}>
      <Row data-text-format="dataTable">
        <Column style={{ ...cell, fontWeight: 700 }}>Support</Column>
        <Column style={{ ...numberCell, fontWeight: 700 }}>Commandé</Column>
        <Column style={{ ...numberCell, fontWeight: 700 }}>Compté</Column>
      </Row>
      {counts.map((line) => (
        <Row key={line.label} style={{ borderBottom: '1px solid #e6e0d8' }} data-text-format="dataTable">
          <Column style={cell}>{line.label}</Column>
          <Column style={numberCell}>{String(line.ordered)}</Column>
          <Column style={numberCell}>{String(line.counted)}</Column>
        </Row>
      ))}
    </Section>
  );
}

/**
 * What a difference at reception means for the customer (decision 025): fewer items are
 * deducted (and refunded when paid: the refund's own e-mail says how, with the IBAN request for an
 * order paid by transfer), more items are a supplement to accept or decline.
 */
function differenceSentence(counts: z.output<typeof originalsReceivedSchema>['counts']): string {
  const fewer = counts.some((line) => line.counted < line.ordered);
  const more = counts.some((line) => line.counted > line.ordered);
  if (fewer && !more)
    return 'Le nombre d’éléments reçus diffère de votre commande : nous en avons reçu moins. La différence est déduite de votre commande et, si vous l’avez déjà réglée, vous est remboursée (un e-mail séparé vous dit comment).';
  if (more && !fewer)
    return 'Le nombre d’éléments reçus diffère de votre commande : nous en avons reçu plus. Un e-mail séparé vous présente le supplément, à accepter ou à refuser, avant que nous numérisions les éléments en plus.';
  return 'Le nombre d’éléments reçus diffère de votre commande : un e-mail séparé vous présente l’ajustement avant que nous commencions la numérisation.';
}

export const originalsReceived: TemplateDefinition<typeof originalsReceivedSchema> = {
  schema: originalsReceivedSchema,
  secretFields: ['orderUrl'],
  build: (data) => {
    const differs = data.counts.some((line) => line.ordered !== line.counted);
    return {
      subject: `Nous avons bien reçu vos souvenirs (commande ${data.orderNumber})`,
      element: (
        <EmailLayout preview="Vos originaux sont arrivés à l’atelier." heading="Nous avons bien reçu vos souvenirs">
          <P>{hello(data.customerName)}</P>
          <P>{`Votre colis pour la commande ${data.orderNumber} est arrivé à l’atelier. Nous en avons vérifié le contenu.`}</P>
          {data.counts.length > 0 ? <CountsTable counts={data.counts} /> : null}
          {differs ? <P>{differenceSentence(data.counts)}</P> : null}
          {data.remarks.length > 0 ? (
            <>
              <P>Nos remarques à la réception :</P>
              {data.remarks.map((remark) => (
                <P key={`${remark.group}${remark.text}`}>
                  {remark.group ? `${remark.group} : ${remark.text}` : remark.text}
                </P>
              ))}
            </>
          ) : null}
          <P>Nous vous écrirons de nouveau dès que vos fichiers seront prêts.</P>
          <Action href={data.orderUrl} label="Suivre ma commande" />
        </EmailLayout>
      ),
    };
  },
};

const orderReadySchema = z.object({
  orderNumber,
  customerName: z.string().trim().optional(),
  orderUrl: linkSchema,
  /** Something comes back by post (USB key, DVD, originals): the next e-mail will be its shipping. */
  returnsByPost: z.boolean().default(false),
  ...deliveredFilesFields,
});

export const orderReady: TemplateDefinition<typeof orderReadySchema> = {
  schema: orderReadySchema,
  secretFields: ['orderUrl', 'galleryUrl'],
  build: (data) => ({
    subject: `Vos fichiers sont prêts (commande ${data.orderNumber})`,
    element: (
      <EmailLayout preview="La numérisation de vos souvenirs est terminée." heading="Vos fichiers sont prêts">
        <P>{hello(data.customerName)}</P>
        <P>{`La numérisation de votre commande ${data.orderNumber} est terminée et a passé notre contrôle qualité.`}</P>
        {data.galleryUrl ? (
          <P>
            Vous pouvez dès maintenant les regarder en ligne, les télécharger un par un ou tous ensemble, et nous
            signaler un fichier à refaire.
          </P>
        ) : null}
        <DeliveredFiles {...data} />
        {data.returnsByPost ? (
          <P>Nous préparons votre colis : vous recevrez son numéro de suivi dès qu’il sera expédié.</P>
        ) : null}
        {data.galleryUrl ? null : <Action href={data.orderUrl} label="Voir ma commande" />}
      </EmailLayout>
    ),
  }),
};

const orderShippedSchema = z.object({
  orderNumber,
  customerName: z.string().trim().optional(),
  orderUrl: linkSchema,
  parcelNumber: z.string().trim().min(1).optional(),
  /** Colissimo / La Poste numbers get La Poste's tracking link; another carrier's does not. */
  carrier: z.enum(['colissimo', 'other']).default('colissimo'),
  /** The staff corrected the number sent before (a typo): this e-mail replaces it. */
  corrected: z.boolean().default(false),
  ...deliveredFilesFields,
});

export const orderShipped: TemplateDefinition<typeof orderShippedSchema> = {
  schema: orderShippedSchema,
  secretFields: ['orderUrl', 'galleryUrl'],
  build: (data) => ({
    subject: data.corrected
      ? `Numéro de suivi corrigé pour votre commande ${data.orderNumber}`
      : `Votre commande ${data.orderNumber} est expédiée`,
    element: (
      <EmailLayout
        preview={data.corrected ? 'Le bon numéro de suivi de votre colis.' : 'Votre colis est en route.'}
        heading={data.corrected ? 'Numéro de suivi corrigé' : 'Votre commande est expédiée'}
      >
        <P>{hello(data.customerName)}</P>
        <P>
          {data.corrected
            ? `Le numéro de suivi que nous vous avons envoyé pour le colis de la commande ${data.orderNumber} était erroné : voici le bon. Veuillez nous excuser.`
            : `Votre colis pour la commande ${data.orderNumber} vient de partir de l’atelier.`}
        </P>
        {data.parcelNumber ? (
          <P>
            {frenchTypography(`Numéro de suivi : ${data.parcelNumber}${data.carrier === 'colissimo' ? ' ' : ''}`)}
            {data.carrier === 'colissimo' ? (
              <Link href={trackingUrl(data.parcelNumber)}>(suivre le colis sur le site de La Poste)</Link>
            ) : null}
          </P>
        ) : null}
        <Action href={data.orderUrl} label="Suivre ma commande" />
        <DeliveredFiles {...data} label="Mes fichiers en ligne" />
        <P small>Une question ? Répondez à cet email ou écrivez-nous depuis la page contact du site.</P>
      </EmailLayout>
    ),
  }),
};

const labelReadySchema = z.object({
  orderNumber,
  customerName: z.string().trim().optional(),
  parcelNumber: z.string().trim().min(1),
  /** The label's download (a guest's link carries the order's token). */
  labelUrl: linkSchema,
});

/** The prepaid sending label exists (made once the order is paid): its link, at last. */
export const labelReady: TemplateDefinition<typeof labelReadySchema> = {
  schema: labelReadySchema,
  secretFields: ['labelUrl'],
  build: (data) => ({
    subject: `Votre étiquette d’envoi prépayée est prête (commande ${data.orderNumber})`,
    element: (
      <EmailLayout preview="Imprimez-la et collez-la sur votre colis." heading="Votre étiquette d’envoi est prête">
        <P>{hello(data.customerName)}</P>
        <P>{`L’étiquette Colissimo prépayée de votre commande ${data.orderNumber} est prête : imprimez-la, collez-la sur votre colis et déposez-le dans un bureau de poste ou un point de retrait Colissimo.`}</P>
        <Action href={data.labelUrl} label="Télécharger l’étiquette prépayée" />
        <P>
          {frenchTypography(`Numéro de suivi : ${data.parcelNumber} `)}
          <Link href={trackingUrl(data.parcelNumber)}>(suivre le colis sur le site de La Poste)</Link>
        </P>
        <P>N’oubliez pas de glisser le bordereau de la commande dans le colis.</P>
      </EmailLayout>
    ),
  }),
};
