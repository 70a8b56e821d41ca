import { describe, expect, it } from 'vitest';
import { CONTACT_MESSAGES, contactDefaults } from './contact-fields';
import { contactMessageSchema } from './contact-form';

const valid = { name: 'Jeanne Martin', email: 'jeanne@example.fr', subject: 'Mes VHS', message: 'Bonjour, …' };

function errors(input: Record<string, unknown>) {
  const result = contactMessageSchema.safeParse(input);
  return result.success ? {} : Object.fromEntries(result.error.issues.map((i) => [i.path.join('.'), i.message]));
}

describe('the contact form schema', () => {
  it('accepts the required fields alone, with pro false', () => {
    expect(contactMessageSchema.parse(valid)).toEqual({ ...valid, pro: false });
  });

  it('accepts the optional fields', () => {
    expect(
      contactMessageSchema.parse({
        ...valid,
        phone: '+33 6 12 34 56 78',
        service: 'vhs',
        pro: 'on',
        email: ' Jeanne@Example.fr ',
      }),
    ).toMatchObject({ phone: '+33 6 12 34 56 78', service: 'vhs', pro: true, email: 'Jeanne@Example.fr' });
  });

  it('names each missing required field in French', () => {
    expect(errors({})).toEqual({
      name: CONTACT_MESSAGES.name,
      email: CONTACT_MESSAGES.email,
      subject: CONTACT_MESSAGES.subject,
      message: CONTACT_MESSAGES.message,
    });
    expect(errors({ ...valid, name: '   ' })).toEqual({ name: CONTACT_MESSAGES.name });
  });

  it.each([
    [{ email: 'pas-une-adresse' }, 'email', CONTACT_MESSAGES.emailInvalid],
    [{ phone: 'appelez-moi' }, 'phone', CONTACT_MESSAGES.phoneInvalid],
    [{ service: 'bobines' }, 'service', CONTACT_MESSAGES.service],
    [{ message: 'x'.repeat(5001) }, 'message', '5000 caractères au maximum'],
  ])('refuses %j', (change, field, message) => {
    expect(errors({ ...valid, ...change })).toEqual({ [field]: message });
  });
});

describe('contactDefaults', () => {
  it('preselects a professional request with ?pro=true', () => {
    expect(contactDefaults(new URLSearchParams('pro=true'))).toEqual({
      pro: true,
      subject: 'Demande de devis professionnel',
      service: '',
    });
  });

  it('prefills a known subject and service, and ignores unknown ones', () => {
    expect(contactDefaults(new URLSearchParams('sujet=essai-gratuit&service=photos'))).toEqual({
      pro: false,
      subject: 'Demande d’essai gratuit',
      service: 'photos',
    });
    expect(contactDefaults(new URLSearchParams('sujet=<script>&service=x&pro=1'))).toEqual({
      pro: false,
      subject: '',
      service: '',
    });
  });
});
