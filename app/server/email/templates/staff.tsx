import { z } from 'zod';
import { Action, EmailLayout, linkSchema, P } from './layout';
import type { TemplateDefinition } from './types';

const staffInvitationSchema = z.object({
  url: linkSchema,
  /** « Atelier », « Comptabilité », « Administrateur ». */
  roleLabel: z.string().trim().min(1),
  inviterName: z.string().trim().optional(),
  expiresInDays: z.number().int().positive().default(7),
});

/**
 * An invitation to join the back office (« Équipe », docs/decisions/016): the link lets the person
 * choose their name and password; it serves once.
 */
export const staffInvitation: TemplateDefinition<typeof staffInvitationSchema> = {
  schema: staffInvitationSchema,
  // The link creates an account: encrypted while queued, wiped once sent.
  secretFields: ['url'],
  sensitive: true,
  build: (data) => ({
    subject: 'Invitation à rejoindre l’équipe Soovenirs',
    element: (
      <EmailLayout preview="Créez votre compte pour accéder au tableau de bord." heading="Rejoignez l’équipe Soovenirs">
        <P>Bonjour,</P>
        <P>
          {data.inviterName
            ? `${data.inviterName} vous invite à rejoindre l’équipe Soovenirs avec le rôle « ${data.roleLabel} ».`
            : `Vous êtes invité(e) à rejoindre l’équipe Soovenirs avec le rôle « ${data.roleLabel} ».`}{' '}
          Choisissez votre nom et votre mot de passe pour accéder au tableau de bord.
        </P>
        <Action href={data.url} label="Créer mon compte" />
        <P small>{`Ce lien est valable ${data.expiresInDays} jours et ne sert qu'une fois.`}</P>
        <P small>Si vous ne vous attendiez pas à cette invitation, ignorez cet email : aucun compte n'est créé.</P>
      </EmailLayout>
    ),
  }),
};
