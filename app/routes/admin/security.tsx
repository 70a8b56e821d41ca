import { parseWithZod } from '@conform-to/zod/v4';
import { data } from 'react-router';
import { SecurityPanel } from '~/components/admin/security-panel';
import { TabError } from '~/components/admin/tab-error';
import { SECURITY_INTENTS } from '~/domain/staff/access-rules';
import { can } from '~/domain/staff/permissions';
import {
  confirmTwoFactorSchema,
  disableTwoFactorSchema,
  enableTwoFactorSchema,
  TWO_FACTOR_MESSAGES,
} from '~/domain/staff/two-factor-forms';
import {
  mustSetUpTwoFactor,
  TWO_FACTOR_POLICY_MESSAGES,
  twoFactorPolicySchema,
} from '~/domain/staff/two-factor-policy';
import type { SecurityActionData } from '~/domain/staff/two-factor-views';
import { cookieHeaders } from '~/server/account/auth-calls.server';
import { requireIntent, requireStaff } from '~/server/admin/access.server';
import { twoFactorEnabled } from '~/server/admin/staff.server';
import { readTwoFactorPolicy, saveTwoFactorPolicy } from '~/server/admin/two-factor-policy.server';
import { disableTwoFactor, startTwoFactor, verifyTotp } from '~/server/auth/two-factor.server';
import { readFormData } from '~/server/form-data.server';
import type { Route } from './+types/security';

/*
 * « Sécurité » (every staff member, docs/decisions/016): two-factor sign-in with a TOTP app. The
 * password gives the QR code, its secret in text and the backup codes (shown this once); the app's
 * first code confirms it. From then on, signing in asks « Code de vérification ». Administrators
 * (capability `team`) also set the team's rule: compulsory for administrators (the guard then
 * sends an administrator without it here, access.server.ts).
 */

export async function loader({ request }: Route.LoaderArgs) {
  const staff = await requireStaff(request, 'dashboard');
  const [enabled, policy] = await Promise.all([twoFactorEnabled(staff.id), readTwoFactorPolicy()]);
  return {
    enabled,
    required: mustSetUpTwoFactor({ role: staff.role, twoFactorEnabled: enabled }, policy),
    policy: can(staff.role, 'team') ? policy : null,
  };
}

export async function action({ request }: Route.ActionArgs) {
  const staff = await requireStaff(request, 'dashboard');
  const form = await readFormData(request);
  requireIntent(request, staff, SECURITY_INTENTS, form.get('intent'));
  if (form.get('intent') === 'policy') {
    const submission = parseWithZod(form, { schema: twoFactorPolicySchema });
    if (submission.status !== 'success')
      return { intent: 'policy', submission: submission.reply() } satisfies SecurityActionData;
    const { adminTwoFactorRequired } = submission.value;
    // Turned on by an administrator without it, the rule would shut them out at once.
    if (adminTwoFactorRequired && !(await twoFactorEnabled(staff.id))) {
      return {
        intent: 'policy',
        submission: submission.reply({ formErrors: [TWO_FACTOR_POLICY_MESSAGES.enableYoursFirst] }),
      } satisfies SecurityActionData;
    }
    await saveTwoFactorPolicy({ adminTwoFactorRequired }, staff.id);
    return {
      intent: 'policy',
      message: adminTwoFactorRequired ? TWO_FACTOR_POLICY_MESSAGES.savedOn : TWO_FACTOR_POLICY_MESSAGES.savedOff,
      submission: submission.reply(),
    } satisfies SecurityActionData;
  }
  if (form.get('intent') === 'enable') {
    const submission = parseWithZod(form, { schema: enableTwoFactorSchema });
    if (submission.status !== 'success') {
      return {
        intent: 'enable',
        submission: submission.reply({ hideFields: ['password'] }),
      } satisfies SecurityActionData;
    }
    const started = await startTwoFactor(request, submission.value.password);
    if (!started.ok) {
      return {
        intent: 'enable',
        submission: submission.reply({ formErrors: [started.message], hideFields: ['password'] }),
      } satisfies SecurityActionData;
    }
    return {
      intent: 'enable',
      setup: started.setup,
      submission: submission.reply({ resetForm: true }),
    } satisfies SecurityActionData;
  }
  if (form.get('intent') === 'disable') {
    const submission = parseWithZod(form, { schema: disableTwoFactorSchema });
    if (submission.status !== 'success') {
      return {
        intent: 'disable',
        submission: submission.reply({ hideFields: ['password'] }),
      } satisfies SecurityActionData;
    }
    const disabled = await disableTwoFactor(request, submission.value.password);
    if (!disabled.ok) {
      const message = disabled.message ?? TWO_FACTOR_MESSAGES.passwordRequired;
      return {
        intent: 'disable',
        submission: submission.reply({ formErrors: [message], hideFields: ['password'] }),
      } satisfies SecurityActionData;
    }
    // Better Auth renews the session cookie when it turns two-factor off.
    return data({ intent: 'disable', done: true, message: TWO_FACTOR_MESSAGES.disabled } satisfies SecurityActionData, {
      headers: cookieHeaders(disabled.setCookies),
    });
  }
  const submission = parseWithZod(form, { schema: confirmTwoFactorSchema });
  if (submission.status !== 'success')
    return { intent: 'confirm', submission: submission.reply() } satisfies SecurityActionData;
  const verified = await verifyTotp(request, submission.value.code);
  if (!verified.ok) {
    const message =
      verified.status === 429 ? (verified.message ?? TWO_FACTOR_MESSAGES.codeInvalid) : TWO_FACTOR_MESSAGES.codeInvalid;
    return { intent: 'confirm', submission: submission.reply({ formErrors: [message] }) } satisfies SecurityActionData;
  }
  // Better Auth renews the session cookie when it turns two-factor on.
  return data({ intent: 'confirm', done: true } satisfies SecurityActionData, {
    headers: cookieHeaders(verified.setCookies),
  });
}

export default function SecurityTab({ loaderData, actionData }: Route.ComponentProps) {
  return <SecurityPanel {...loaderData} actionData={actionData ?? null} />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <TabError error={error} />;
}
