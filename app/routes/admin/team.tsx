import { parseWithZod } from '@conform-to/zod/v4';
import { data } from 'react-router';
import { TabError } from '~/components/admin/tab-error';
import { TeamPage } from '~/components/admin/team-page';
import {
  changeRoleSchema,
  inviteStaffSchema,
  memberStateSchema,
  revokeInvitationSchema,
} from '~/domain/staff/team-forms';
import type { TeamActionData } from '~/domain/staff/team-views';
import { requireStaff } from '~/server/admin/access.server';
import {
  changeStaffMember,
  inviteStaff,
  listPendingInvitations,
  listStaff,
  revokeInvitation,
} from '~/server/admin/staff.server';
import { readFormData } from '~/server/form-data.server';
import type { Route } from './+types/team';

/*
 * « Équipe » (administrators only, docs/decisions/016): the staff, invitations by e-mail, role
 * changes, deactivation and reactivation. Each form posts here with its `intent`; refusals (the
 * last active administrator…) come back in French under the form, nothing changed.
 */

export async function loader({ request }: Route.LoaderArgs) {
  const admin = await requireStaff(request, 'team');
  const [members, invitations] = await Promise.all([listStaff(), listPendingInvitations()]);
  return { members, invitations, currentUserId: admin.id };
}

// Answers a form can correct are 200 with `ok: false`: a 4xx is logged as an error by browsers.
export async function action({ request }: Route.ActionArgs): Promise<TeamActionData> {
  const admin = await requireStaff(request, 'team');
  const form = await readFormData(request);
  const intent = form.get('intent');
  if (intent === 'invite') {
    const submission = parseWithZod(form, { schema: inviteStaffSchema });
    if (submission.status !== 'success') {
      return { intent, ok: false, message: 'Vérifiez le formulaire.', submission: submission.reply() };
    }
    const result = await inviteStaff({ ...submission.value, invitedBy: admin.id });
    return {
      intent,
      ok: result.ok,
      message: result.message,
      submission: result.ok
        ? submission.reply({ resetForm: true })
        : submission.reply({ formErrors: [result.message] }),
    };
  }
  if (intent === 'role') {
    const submission = parseWithZod(form, { schema: changeRoleSchema });
    if (submission.status !== 'success') {
      return { intent, ok: false, message: 'Choisissez un rôle.', submission: submission.reply() };
    }
    const { userId, role } = submission.value;
    const result = await changeStaffMember({ actorId: admin.id, userId, change: { kind: 'role', role } });
    return {
      intent,
      userId,
      ok: result.ok,
      message: result.message,
      submission: submission.reply(result.ok ? {} : { formErrors: [result.message] }),
    };
  }
  if (intent === 'deactivate' || intent === 'reactivate') {
    const submission = parseWithZod(form, { schema: memberStateSchema });
    if (submission.status !== 'success') return { intent, ok: false, message: 'Membre de l’équipe introuvable.' };
    const { userId } = submission.value;
    const result = await changeStaffMember({ actorId: admin.id, userId, change: { kind: submission.value.intent } });
    return { intent, userId, ok: result.ok, message: result.message };
  }
  if (intent === 'revoke') {
    const submission = parseWithZod(form, { schema: revokeInvitationSchema });
    if (submission.status !== 'success') return { intent, ok: false, message: 'Invitation introuvable.' };
    const result = await revokeInvitation(submission.value.invitationId, admin.id);
    return { intent, ok: result.ok, message: result.message };
  }
  throw data({ error: 'Action inconnue' }, { status: 400 });
}

export default function TeamTab({ loaderData, actionData }: Route.ComponentProps) {
  return <TeamPage {...loaderData} actionData={actionData ?? null} />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <TabError error={error} />;
}
