import { z } from 'zod';
import { formatDateTimeFr } from '~/domain/format';
import { EmailLayout, P } from './layout';
import type { TemplateDefinition } from './types';

const testEmailSchema = z.object({
  sentAt: z.iso.datetime({ offset: true }),
  smtpHost: z.string().min(1),
  smtpPort: z.number().int(),
});

/** Sent from the e-mail configuration dialog of the back office. */
export const testEmail: TemplateDefinition<typeof testEmailSchema> = {
  schema: testEmailSchema,
  build: (data) => ({
    subject: 'Email de test Soovenirs',
    element: (
      <EmailLayout preview="La configuration SMTP de la boutique fonctionne." heading="Email de test">
        <P>Bonne nouvelle : cet email de test prouve que la boutique peut envoyer des emails.</P>
        <P>
          {`Envoyé le ${formatDateTimeFr(data.sentAt)} par le serveur ${data.smtpHost}, port ${data.smtpPort} (${
            data.smtpPort === 465 ? 'SSL' : 'TLS'
          }).`}
        </P>
      </EmailLayout>
    ),
  }),
};

const customSchema = z.object({
  subject: z.string().trim().min(1).max(998),
  html: z.string().min(1),
});

/** An administrator's own message (the send-email endpoint): their HTML, as written. */
export const custom: TemplateDefinition<typeof customSchema> = {
  schema: customSchema,
  writtenByPerson: true,
  build: (data) => ({ subject: data.subject, html: data.html }),
};
