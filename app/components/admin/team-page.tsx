import { getFormProps, useForm } from '@conform-to/react';
import { Form, useNavigation } from 'react-router';
import { Field, SelectField } from '~/components/forms/field';
import { Alert } from '~/components/ui/alert';
import { Badge } from '~/components/ui/badge';
import { Button } from '~/components/ui/button';
import { formatDateFr } from '~/domain/format';
import { STAFF_ROLE_LABELS, STAFF_ROLES, type StaffRole } from '~/domain/staff/permissions';
import type { StaffInvitationView, StaffMemberView, TeamActionData } from '~/domain/staff/team-views';

const ROLE_OPTIONS = STAFF_ROLES.map((role) => ({ value: role, label: STAFF_ROLE_LABELS[role] }));

/** « Équipe »: invite, then the staff (one card per person: reads on a phone), then the open invitations. */
export function TeamPage({
  members,
  invitations,
  currentUserId,
  actionData,
}: {
  members: StaffMemberView[];
  invitations: StaffInvitationView[];
  currentUserId: string;
  actionData: TeamActionData | null;
}) {
  const rowAnswer = actionData && actionData.intent !== 'invite' ? actionData : null;
  // A refused role change is said under its own form; every other answer above the list.
  const banner = rowAnswer && !(rowAnswer.intent === 'role' && !rowAnswer.ok) ? rowAnswer : null;
  return (
    <div className="flex flex-col gap-8">
      <InviteForm lastResult={actionData?.intent === 'invite' ? actionData : null} />
      {banner ? <Alert variant={banner.ok ? 'success' : 'danger'}>{banner.message}</Alert> : null}
      <section aria-labelledby="equipe-membres" className="flex flex-col gap-3">
        <h2 id="equipe-membres" className="font-heading font-semibold text-xl">
          Membres de l’équipe
        </h2>
        <ul className="flex flex-col gap-3">
          {members.map((member) => (
            <MemberCard
              key={member.id}
              member={member}
              isSelf={member.id === currentUserId}
              lastResult={rowAnswer?.intent === 'role' && rowAnswer.userId === member.id ? rowAnswer : null}
            />
          ))}
        </ul>
      </section>
      <section aria-labelledby="equipe-invitations" className="flex flex-col gap-3">
        <h2 id="equipe-invitations" className="font-heading font-semibold text-xl">
          Invitations en attente
        </h2>
        {invitations.length === 0 ? (
          <p className="text-muted-foreground">Aucune invitation en attente.</p>
        ) : (
          <ul className="flex flex-col gap-2">
            {invitations.map((invitation) => (
              <li
                key={invitation.id}
                className="flex flex-wrap items-center gap-3 rounded-lg border bg-card p-3 text-sm"
              >
                <span className="font-medium">{invitation.email}</span>
                <Badge variant="outline">{STAFF_ROLE_LABELS[invitation.role]}</Badge>
                <span className="text-muted-foreground">Valable jusqu’au {formatDateFr(invitation.expiresAt)}</span>
                <Form method="post" className="ml-auto">
                  <input type="hidden" name="intent" value="revoke" />
                  <input type="hidden" name="invitationId" value={invitation.id} />
                  <Button
                    type="submit"
                    variant="outline"
                    size="sm"
                    aria-label={`Annuler l’invitation de ${invitation.email}`}
                  >
                    Annuler
                  </Button>
                </Form>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

function InviteForm({ lastResult }: { lastResult: TeamActionData | null }) {
  const navigation = useNavigation();
  const busy = navigation.state !== 'idle' && navigation.formData?.get('intent') === 'invite';
  const [form, fields] = useForm<{ email: string; role: StaffRole }>({
    id: 'invite-staff',
    lastResult: lastResult?.submission,
    defaultValue: { role: 'atelier' },
    shouldRevalidate: 'onInput',
  });
  return (
    <section aria-labelledby="equipe-inviter" className="flex flex-col gap-3 rounded-lg border bg-card p-4">
      <h2 id="equipe-inviter" className="font-heading font-semibold text-xl">
        Inviter un membre
      </h2>
      <p className="text-muted-foreground text-sm">
        La personne reçoit un lien valable 7 jours pour choisir son nom et son mot de passe.
      </p>
      {lastResult?.ok ? <Alert variant="success">{lastResult.message}</Alert> : null}
      {form.errors?.length ? <Alert variant="danger">{form.errors[0]}</Alert> : null}
      <Form method="post" {...getFormProps(form)} className="grid gap-3 sm:grid-cols-[1fr_14rem_auto] sm:items-end">
        <input type="hidden" name="intent" value="invite" />
        <Field meta={fields.email} label="Adresse e-mail" type="email" autoComplete="off" />
        <SelectField meta={fields.role} label="Rôle" options={ROLE_OPTIONS} />
        <Button type="submit" disabled={busy}>
          {busy ? 'Envoi…' : 'Envoyer l’invitation'}
        </Button>
      </Form>
    </section>
  );
}

function MemberCard({
  member,
  isSelf,
  lastResult,
}: {
  member: StaffMemberView;
  isSelf: boolean;
  lastResult: TeamActionData | null;
}) {
  const [form, fields] = useForm<{ role: StaffRole }>({
    id: `role-${member.id}`,
    lastResult: lastResult?.submission,
    defaultValue: { role: member.role },
  });
  return (
    <li className="flex flex-col gap-3 rounded-lg border bg-card p-4 sm:flex-row sm:flex-wrap sm:items-end">
      <div className="flex min-w-0 flex-1 flex-col gap-1">
        <p className="font-semibold">
          {member.name}
          {isSelf ? <span className="font-normal text-muted-foreground"> (vous)</span> : null}
        </p>
        <p className="break-all text-muted-foreground text-sm">{member.email}</p>
        <div className="flex flex-wrap gap-2">
          <Badge variant={member.active ? 'success' : 'danger'}>{member.active ? 'Actif' : 'Désactivé'}</Badge>
          <Badge variant={member.twoFactorEnabled ? 'info' : 'neutral'}>
            {member.twoFactorEnabled ? 'Double authentification activée' : 'Double authentification non activée'}
          </Badge>
        </div>
      </div>
      <Form method="post" {...getFormProps(form)} className="flex items-end gap-2">
        <input type="hidden" name="intent" value="role" />
        <input type="hidden" name="userId" value={member.id} />
        <SelectField
          meta={fields.role}
          label={<span>Rôle de {member.name}</span>}
          options={ROLE_OPTIONS}
          className="flex w-48 flex-col gap-1.5"
        />
        <Button type="submit" variant="outline">
          Changer
        </Button>
      </Form>
      {isSelf ? null : (
        <Form method="post">
          <input type="hidden" name="intent" value={member.active ? 'deactivate' : 'reactivate'} />
          <input type="hidden" name="userId" value={member.id} />
          <Button type="submit" variant={member.active ? 'destructive' : 'outline'}>
            {member.active ? `Désactiver` : `Réactiver`}
            <span className="sr-only"> {member.name}</span>
          </Button>
        </Form>
      )}
      {form.errors?.length ? (
        <p id={form.errorId} className="w-full text-destructive text-sm" role="alert">
          {form.errors[0]}
        </p>
      ) : null}
    </li>
  );
}
