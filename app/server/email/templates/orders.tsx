import { Column } from '@react-email/column';
import { Row } from '@react-email/row';
import { Section } from '@react-email/section';
import { Text } from '@react-email/text';
import { z } from 'zod';
import { withdrawalFollowUp } from '~/domain/account/withdrawal-texts';
import { company as SHOP_IDENTITY } from '~/domain/company';
import { orderStatusEmailWording } from '~/domain/email/order-status-email';
import { formatDateFr, formatDateTimeFr, formatEurosFromCents, frenchTypography } from '~/domain/format';
import { OFFLINE_PAYMENT_METHODS, paymentInstructions } from '~/domain/payments/offline';
import { termsVersionLabel } from '~/domain/terms';
import { contractDocuments } from '../contract-documents.server';
import { DeliveredFiles, deliveredFilesFields } from './files';
import { Action, EmailLayout, emailStyles, linkSchema, P } from './layout';
import type { TemplateDefinition } from './types';

const isoDate = z.iso.datetime({ offset: true });
const cents = z.number().int();
const orderNumber = z.string().trim().min(1);

const hello = (name?: string) => (name ? `Bonjour ${name},` : 'Bonjour,');

const cell = { ...emailStyles.paragraph, margin: '0', padding: '6px 0' };
const amountCell = { ...cell, textAlign: 'right' as const, whiteSpace: 'nowrap' as const };

function Lines({ lines, total }: { lines: { label: string; detail?: string; amount?: string }[]; total?: string }) {
  return (
    <Section style={{ margin: '0 0 16px' }}>
      {lines.map((line, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: static list, rendered once
        <Row key={index} style={{ borderBottom: '1px solid #e6e0d8' }} data-text-format="dataTable">
          <Column style={cell}>
            {line.label}
            {line.detail ? <span style={{ color: '#5b6770' }}> · {line.detail}</span> : null}
          </Column>
          {line.amount !== undefined ? <Column style={amountCell}>{line.amount}</Column> : null}
        </Row>
      ))}
      {total !== undefined ? (
        <Row data-text-format="dataTable">
          <Column style={{ ...cell, fontWeight: 700 }}>{frenchTypography('Total TTC')}</Column>
          <Column style={{ ...amountCell, fontWeight: 700 }}>{total}</Column>
        </Row>
      ) : null}
    </Section>
  );
}

const contractSchema = z.object({
  /** orders.terms_version: the terms of sale accepted (the /cgv text of that version). */
  termsVersion: z.string().trim().min(1),
  termsAcceptedAt: isoDate,
  placedAt: isoDate,
  /** When the 14 days of withdrawal end (domain/account/withdrawal.ts), and the work starts without consent. */
  withdrawalEndsAt: isoDate,
  /** orders.early_start_consent_at: the customer asked for the work to start within the 14 days. */
  earlyStartConsentAt: isoDate.nullable(),
});

export type ContractFacts = z.output<typeof contractSchema>;

const orderConfirmationSchema = z.object({
  orderNumber,
  createdAt: isoDate,
  customerName: z.string().trim().optional(),
  items: z
    .array(z.object({ label: z.string().min(1), quantity: z.number().int().positive(), totalCents: cents }))
    .min(1),
  /** Delivery, shipping of originals...: lines after the items. */
  extras: z.array(z.object({ label: z.string().min(1), totalCents: cents })).default([]),
  totalCents: cents,
  /** What a gift card pays of the order (decision 037): the money asked for is the rest. */
  giftCardCents: cents.optional(),
  orderUrl: linkSchema,
  /** Transfer or cheque chosen at checkout: the e-mail says how to pay (app/domain/payments/offline.ts). */
  paymentMethod: z.enum(OFFLINE_PAYMENT_METHODS).optional(),
  /** How to send the originals (domain/orders/sending-instructions.ts); absent on orders from before. */
  sending: z
    .object({
      addressLines: z.array(z.string().min(1)).min(1),
      packing: z.array(z.object({ title: z.string().min(1), advice: z.string().min(1) })).default([]),
      slipUrl: linkSchema,
      /** The prepaid Colissimo label exists already (made at payment): where it is downloaded. */
      labelUrl: linkSchema.optional(),
      /**
       * The prepaid label was bought but is made only once the order is paid (a transfer or a
       * cheque not received yet): the e-mail says so, and the « label-ready » e-mail brings its link.
       */
      labelAfterPayment: z.boolean().default(false),
    })
    .optional(),
  /** The contract on a durable medium (L221-13); absent on the e-mails queued before it was added. */
  contract: contractSchema.optional(),
});

/** The workshop's address, the slip to print, the label when bought, and how to pack each support. */
function SendingBlock({ sending }: { sending: NonNullable<z.output<typeof orderConfirmationSchema>['sending']> }) {
  return (
    <Section style={{ margin: '0 0 16px' }}>
      <Text style={{ ...emailStyles.paragraph, fontWeight: 700, margin: '0 0 8px' }}>Envoyez-nous vos originaux</Text>
      <P>
        {sending.labelUrl
          ? 'Votre étiquette Colissimo prépayée est disponible depuis votre commande : collez-la sur le colis, adressé à :'
          : sending.labelAfterPayment
            ? 'Votre étiquette Colissimo prépayée sera créée dès réception de votre paiement : nous vous enverrons alors son lien par email. Elle adresse le colis à :'
            : 'Envoyez votre colis, de préférence en suivi, à :'}
      </P>
      <Text style={{ ...emailStyles.paragraph, fontWeight: 700 }}>
        {sending.addressLines.map((line, index) => (
          <span key={line}>
            {index > 0 ? <br /> : null}
            {line}
          </span>
        ))}
      </Text>
      <P>Imprimez le bordereau de la commande et glissez-le dans le colis :</P>
      <Action href={sending.slipUrl} label="Imprimer le bordereau" />
      {sending.labelUrl ? <Action href={sending.labelUrl} label="Télécharger l’étiquette prépayée" /> : null}
      {sending.packing.map((item) => (
        <P key={item.title}>{`${item.title} : ${item.advice}`}</P>
      ))}
    </Section>
  );
}

/**
 * The contract: the terms accepted (attached), the withdrawal period and how to use it (the model
 * form attached), and when the work starts: at the end of the 14 days, or sooner at the customer's
 * express request, which costs them the right of withdrawal once the service is fully performed.
 */
function ContractBlock({ contract, orderNumber }: { contract: ContractFacts; orderNumber: string }) {
  const lastDay = new Date(new Date(contract.withdrawalEndsAt).getTime() - 1);
  return (
    <Section style={{ margin: '0 0 16px' }}>
      <Text style={{ ...emailStyles.paragraph, fontWeight: 700, margin: '0 0 8px' }}>Votre contrat</Text>
      <P>
        {`Vous avez accepté le ${formatDateFr(contract.termsAcceptedAt)} nos conditions générales de vente (${termsVersionLabel(contract.termsVersion)}). Elles sont jointes à cet email, avec le formulaire de rétractation : conservez-les.`}
      </P>
      <Text style={{ ...emailStyles.paragraph, fontWeight: 700, margin: '0 0 8px' }}>Droit de rétractation</Text>
      <P>
        {`Vous disposez de 14 jours, jusqu’au ${formatDateFr(lastDay)} inclus, pour vous rétracter de la commande ${orderNumber} sans donner de motif : depuis votre commande (« Renoncer au contrat ici »), par email à ${SHOP_IDENTITY.email}, par courrier à ${SHOP_IDENTITY.legalName}, ${SHOP_IDENTITY.street}, ${SHOP_IDENTITY.postalCode} ${SHOP_IDENTITY.city}, ou avec le formulaire de rétractation joint.`}
      </P>
      <P>
        {contract.earlyStartConsentAt
          ? `Le ${formatDateFr(contract.earlyStartConsentAt)}, vous avez demandé expressément que la numérisation commence avant la fin du délai de rétractation. Si vous vous rétractez après le début des travaux, le montant correspondant au service déjà fourni reste dû ; une fois la prestation entièrement exécutée, vous perdez votre droit de rétractation.`
          : `Vous n’avez pas demandé que la numérisation commence pendant le délai de rétractation : nous commencerons les travaux à sa fin, à partir du ${formatDateFr(contract.withdrawalEndsAt)}.`}
      </P>
    </Section>
  );
}

/** How to pay by transfer or cheque: the same words as the confirmation page. */
function PaymentInstructionsBlock(
  props: Parameters<typeof paymentInstructions>[1] & { method: 'transfer' | 'cheque' },
) {
  const instructions = paymentInstructions(props.method, props);
  return (
    <Section style={{ margin: '0 0 16px' }}>
      <Text style={{ ...emailStyles.paragraph, fontWeight: 700, margin: '0 0 8px' }}>{instructions.title}</Text>
      <P>{instructions.intro}</P>
      <Lines
        lines={instructions.details.map((detail) => ({
          label: frenchTypography(`${detail.label} :`),
          amount: detail.value,
        }))}
      />
      <P>{instructions.outro}</P>
    </Section>
  );
}

export const orderConfirmation: TemplateDefinition<typeof orderConfirmationSchema> = {
  schema: orderConfirmationSchema,
  // A guest's links carry the order's access token.
  secretFields: ['orderUrl', 'sending.slipUrl', 'sending.labelUrl'],
  attachments: (data) => (data.contract ? contractDocuments(data.orderNumber, data.contract) : Promise.resolve([])),
  build: (data) => ({
    // The second confirmation (transfer or cheque chosen) says so, to be told apart from the first.
    subject: data.paymentMethod
      ? frenchTypography(
          `Confirmation de votre commande ${data.orderNumber} : paiement par ${data.paymentMethod === 'transfer' ? 'virement' : 'chèque'}`,
        )
      : `Confirmation de votre commande ${data.orderNumber}`,
    element: (
      <EmailLayout
        preview={`Commande ${data.orderNumber} du ${formatDateFr(data.createdAt)} : ${formatEurosFromCents(data.totalCents)}`}
        // The truth of the moment it leaves: by card it leaves before the card is taken
        // (and may be declined), so it thanks for nothing yet; « Paiement reçu » follows the payment.
        heading={data.paymentMethod ? 'Merci pour votre commande !' : 'Votre commande est enregistrée'}
      >
        <P>{hello(data.customerName)}</P>
        <P>{`Nous avons bien enregistré votre commande ${data.orderNumber} du ${formatDateFr(data.createdAt)}.`}</P>
        {data.paymentMethod ? null : (
          <P>
            {frenchTypography(
              'Elle sera lancée dès que votre paiement par carte sera accepté : vous recevrez alors un e-mail « Paiement reçu » avec votre facture. Si le paiement n’aboutit pas, vous pourrez payer à nouveau depuis le lien ci-dessous.',
            )}
          </P>
        )}
        <Lines
          lines={[
            ...data.items.map((item) => ({
              label: item.label,
              detail: frenchTypography(`quantité : ${item.quantity}`),
              amount: formatEurosFromCents(item.totalCents),
            })),
            ...data.extras.map((extra) => ({ label: extra.label, amount: formatEurosFromCents(extra.totalCents) })),
          ]}
          total={formatEurosFromCents(data.totalCents)}
        />
        {data.giftCardCents ? (
          <P>
            {frenchTypography(
              `Votre carte cadeau en règle ${formatEurosFromCents(data.giftCardCents)} ; reste à payer : ${formatEurosFromCents(data.totalCents - data.giftCardCents)}.`,
            )}
          </P>
        ) : null}
        {data.paymentMethod ? (
          <PaymentInstructionsBlock
            method={data.paymentMethod}
            number={data.orderNumber}
            amountDueCents={data.totalCents - (data.giftCardCents ?? 0)}
          />
        ) : null}
        {data.sending ? <SendingBlock sending={data.sending} /> : null}
        {data.contract ? <ContractBlock contract={data.contract} orderNumber={data.orderNumber} /> : null}
        <P>Nous vous tiendrons informé par email de chaque étape du traitement de votre commande.</P>
        <Action href={data.orderUrl} label="Suivre ma commande" />
      </EmailLayout>
    ),
  }),
};

const paymentReceivedSchema = z.object({
  orderNumber,
  amountCents: cents,
  paidAt: isoDate,
  /** What a gift card paid of the order besides the money (decision 037). */
  giftCardCents: cents.optional(),
  invoiceNumber: z.string().trim().min(1).optional(),
  /** The invoice's page; a guest's carries the order's token (they have no customer area). */
  invoiceUrl: linkSchema,
  /** An account holder also finds the invoice in their customer area. */
  customerArea: z.boolean().default(true),
  customerName: z.string().trim().optional(),
});

/** The money received, and what a gift card paid besides (or all of it). */
function paymentReceivedSentence(data: z.output<typeof paymentReceivedSchema>): string {
  const day = formatDateFr(data.paidAt);
  const card = data.giftCardCents ? formatEurosFromCents(data.giftCardCents) : null;
  if (card && data.amountCents === 0) {
    return `Votre carte cadeau a réglé votre commande ${data.orderNumber} (${card}) le ${day}. Merci !`;
  }
  const paid = `Nous avons bien reçu votre paiement de ${formatEurosFromCents(data.amountCents)} le ${day} pour la commande ${data.orderNumber}`;
  return card ? `${paid}, réglée aussi par votre carte cadeau à hauteur de ${card}. Merci !` : `${paid}. Merci !`;
}

export const paymentReceived: TemplateDefinition<typeof paymentReceivedSchema> = {
  schema: paymentReceivedSchema,
  secretFields: ['invoiceUrl'],
  build: (data) => ({
    subject: `Paiement reçu pour la commande ${data.orderNumber}`,
    element: (
      <EmailLayout
        preview={`Paiement de ${formatEurosFromCents(data.amountCents)} reçu, votre facture est disponible.`}
        heading="Paiement reçu"
      >
        <P>{hello(data.customerName)}</P>
        <P>{frenchTypography(paymentReceivedSentence(data))}</P>
        <P>
          {`${data.invoiceNumber ? `Votre facture ${data.invoiceNumber}` : 'Votre facture'} est disponible ${data.customerArea ? 'dans votre espace client' : 'ici'} :`}
        </P>
        <Action href={data.invoiceUrl} label="Voir ma facture" />
      </EmailLayout>
    ),
  }),
};

const paymentRejectedSchema = z.object({
  orderNumber,
  amountCents: cents,
  paymentMethod: z.enum(OFFLINE_PAYMENT_METHODS).optional(),
  /** The order's page, where the customer pays again (a guest's link carries the token). */
  orderUrl: linkSchema,
  customerName: z.string().trim().optional(),
  /** Why the staff rejected it, in their words. */
  reason: z.string().trim().min(1).optional(),
});

/** The staff rejected the awaited transfer or cheque: say it, why, and how to go on. */
export const paymentRejected: TemplateDefinition<typeof paymentRejectedSchema> = {
  schema: paymentRejectedSchema,
  secretFields: ['orderUrl'],
  build: (data) => {
    const amount = formatEurosFromCents(data.amountCents);
    const what =
      data.paymentMethod === 'cheque'
        ? `votre chèque de ${amount}`
        : data.paymentMethod === 'transfer'
          ? `votre virement de ${amount}`
          : `votre paiement de ${amount}`;
    return {
      subject: `Paiement non validé pour la commande ${data.orderNumber}`,
      element: (
        <EmailLayout preview={`Nous n’avons pas pu valider ${what}.`} heading="Paiement non validé">
          <P>{hello(data.customerName)}</P>
          {data.reason ? (
            <>
              <P>{`Nous n’avons pas pu valider ${what} pour la commande ${data.orderNumber}.`}</P>
              <P>{`Motif : ${data.reason}`}</P>
            </>
          ) : (
            <P>{`Nous n’avons pas pu valider ${what} pour la commande ${data.orderNumber} : nous ne l’avons pas reçu, ou il ne correspond pas à la commande (montant, référence).`}</P>
          )}
          <P>
            Si vous l’avez déjà envoyé, répondez simplement à cet e-mail avec votre justificatif : nous vérifierons avec
            vous. Sinon, vous pouvez régler votre commande en ligne :
          </P>
          <Action href={data.orderUrl} label="Régler ma commande" />
          <P>Vos originaux ne seront pas traités avant la réception du paiement.</P>
        </EmailLayout>
      ),
    };
  },
};

const orderStatusSchema = z.object({
  orderNumber,
  /** The order's new status code (pending, processing, completed, shipped, canceled). */
  status: z.string().min(1),
  /** The status in French, shown with the generic wording (pending and unknown values). */
  statusLabel: z.string().trim().optional(),
  customerName: z.string().trim().optional(),
  orderUrl: linkSchema.optional(),
  /** The files are online (decision 011): the gallery (a guest's link carries the delivery token). */
  ...deliveredFilesFields,
});

export const orderStatus: TemplateDefinition<typeof orderStatusSchema> = {
  schema: orderStatusSchema,
  secretFields: ['galleryUrl'],
  build: (data) => {
    const wording = orderStatusEmailWording(data.status, data.orderNumber);
    return {
      subject: wording.subject,
      element: (
        <EmailLayout preview={wording.message} heading={wording.heading}>
          <P>{hello(data.customerName)}</P>
          <P>{wording.message}</P>
          {wording.generic ? <P>{`Nouveau statut : ${data.statusLabel ?? data.status}`}</P> : null}
          <P>{`Commande : ${data.orderNumber}`}</P>
          {data.orderUrl ? <Action href={data.orderUrl} label="Voir ma commande" /> : null}
          <DeliveredFiles {...data} label="Mes fichiers en ligne" />
          <P small>Une question ? Répondez à cet email ou écrivez-nous depuis la page contact du site.</P>
        </EmailLayout>
      ),
    };
  },
};

const quoteSavedSchema = z.object({
  quoteUrl: linkSchema,
  createdAt: isoDate,
  totalCents: cents,
  lines: z.array(z.object({ label: z.string().min(1), quantity: z.number().int().positive() })).default([]),
  customerName: z.string().trim().optional(),
});

export const quoteSaved: TemplateDefinition<typeof quoteSavedSchema> = {
  schema: quoteSavedSchema,
  // A guest quote's link is its access token.
  secretFields: ['quoteUrl'],
  build: (data) => ({
    subject: `Votre devis Soovenirs du ${formatDateFr(data.createdAt)}`,
    element: (
      <EmailLayout
        preview={`Montant estimé : ${formatEurosFromCents(data.totalCents)} TTC`}
        heading="Votre devis est enregistré"
      >
        <P>{hello(data.customerName)}</P>
        <P>
          {`Votre devis du ${formatDateFr(data.createdAt)} est enregistré. Montant estimé : ${formatEurosFromCents(data.totalCents)} TTC.`}
        </P>
        {data.lines.length > 0 ? (
          <Lines
            lines={data.lines.map((line) => ({
              label: line.label,
              detail: frenchTypography(`quantité : ${line.quantity}`),
            }))}
          />
        ) : null}
        <P>Vous pouvez le retrouver, le modifier et passer commande à tout moment :</P>
        <Action href={data.quoteUrl} label="Retrouver mon devis" />
        <P small>Le devis reprend les tarifs en vigueur le jour de son enregistrement.</P>
      </EmailLayout>
    ),
  }),
};

const withdrawalAcknowledgementSchema = z.object({
  orderNumber,
  /** When the customer's withdrawal reached us: the date the acknowledgement is evidence of. */
  requestedAt: isoDate,
  orderDate: isoDate.optional(),
  customerName: z.string().trim().optional(),
  /** The case the lifecycle applied (withdrawalCase) and where the originals were: the text per case. */
  withdrawalCase: z.enum(['unpaid', 'paid_not_started', 'started']).optional(),
  originals: z.enum(['not_sent', 'at_workshop', 'returned']).optional(),
  /** The full refund of a paid order whose work had not started. */
  refundCents: z.number().int().nonnegative().optional(),
});

export const withdrawalAcknowledgement: TemplateDefinition<typeof withdrawalAcknowledgementSchema> = {
  schema: withdrawalAcknowledgementSchema,
  build: (data) => ({
    subject: `Accusé de réception de votre rétractation (commande ${data.orderNumber})`,
    element: (
      <EmailLayout
        preview={`Rétractation reçue le ${formatDateFr(data.requestedAt)} pour la commande ${data.orderNumber}.`}
        heading="Accusé de réception de votre rétractation"
      >
        <P>{hello(data.customerName)}</P>
        <P>
          {`Nous accusons réception de votre décision de vous rétracter du contrat relatif à la commande ${data.orderNumber}${
            data.orderDate ? ` du ${formatDateFr(data.orderDate)}` : ''
          }, reçue le ${formatDateTimeFr(data.requestedAt)}.`}
        </P>
        {data.withdrawalCase ? (
          <>
            <P>{withdrawalFollowUp(data.withdrawalCase, data.originals ?? 'not_sent', data.refundCents).money}</P>
            {data.originals ? <P>{withdrawalFollowUp(data.withdrawalCase, data.originals).originals}</P> : null}
          </>
        ) : (
          // Acknowledgements queued before the cases were told apart keep their general wording.
          <P>
            Nous vous rembourserons les sommes versées au plus tard dans les 14 jours suivant la réception de votre
            décision, par le même moyen de paiement que celui utilisé pour la commande. Si vous aviez demandé que la
            prestation commence avant la fin du délai de rétractation, le montant correspondant au service déjà fourni
            reste dû.
          </P>
        )}
        <Text style={emailStyles.small}>
          {frenchTypography(`Conservez cet email : il fait foi de la date de votre rétractation.`)}
        </Text>
      </EmailLayout>
    ),
  }),
};
