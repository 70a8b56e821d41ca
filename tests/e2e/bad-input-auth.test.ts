import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setRoleInDatabase, TEST_PASSWORD, uniqueEmail } from '../support/auth';
import {
  type Answer,
  Database,
  expectFrenchRefusal,
  formPost,
  hostileString,
  jsonPost,
  PROPERTY_TIME,
  property,
  type RowCounts,
  readAnswer,
  send,
  showServerLogOnFailure,
  startFuzzServer,
} from '../support/bad-input';
import type { TestServer } from '../support/server';

/*
 * Bad input on the contact form, the sign-in pages and Better Auth's endpoints:
 * thousands of malformed, oversized and hostile values over real HTTP. Every answer is below 500;
 * a refusal says why in French; a refused request stores nothing; no script comes back unescaped;
 * a redirect never leaves the site.
 */

let server: TestServer;
let db: Database;

beforeAll(async () => {
  server = await startFuzzServer();
  db = await Database.open(server.databaseUrl);
});

showServerLogOnFailure(() => server);

afterAll(async () => {
  await db?.close();
  await server?.dispose();
});

function expectSameCounts(before: RowCounts, after: RowCounts, what: string) {
  expect(after, `${what}: a refused request stored something`).toEqual(before);
}

/** A redirect stays on this site, whatever `redirectTo` said. */
function expectLocalRedirect(answer: Answer, what: string) {
  if (!answer.location) return;
  const target = new URL(answer.location, server.url);
  expect(target.origin, `${what}: redirected to ${answer.location}`).toBe(server.url);
}

describe('the contact form', PROPERTY_TIME, () => {
  const FIELDS = ['name', 'email', 'phone', 'subject', 'message', 'service', 'pro', 'site_web'];

  it('answers any post without a 5xx, in French, and stores only accepted messages', async () => {
    await property(formPost(FIELDS), 250, async ({ body, contentType }) => {
      const before = await db.counts();
      const answer = await readAnswer(await send(server, '/contact', { body, contentType }), `POST /contact ${body}`);
      expectFrenchRefusal(answer, 'POST /contact');
      if (answer.status !== 200) expectSameCounts(before, await db.counts(), 'POST /contact');
    });
  });

  it('stores well-formed messages whatever their text (NUL, emoji, scripts), or refuses them in French', async () => {
    const text = hostileString.filter((s) => s.trim() !== '' && s.length <= 120);
    const post = fc
      .record({ name: text, subject: text, message: text })
      .map((fields) => new URLSearchParams({ ...fields, email: uniqueEmail('fuzz') }).toString());
    await property(post, 120, async (body) => {
      const before = await db.counts();
      const answer = await readAnswer(
        await send(server, '/contact', { body, contentType: 'application/x-www-form-urlencoded' }),
        `POST /contact ${body}`,
      );
      expectFrenchRefusal(answer, 'POST /contact');
      const after = await db.counts();
      if (answer.status === 200) expect(after.contact_messages).toBe(before.contact_messages + 1);
      else expectSameCounts(before, after, 'POST /contact');
    });
  });
});

describe('/login', PROPERTY_TIME, () => {
  const FIELDS = ['email', 'password', 'confirmPassword', 'redirectTo', 'website'];
  const intents = fc.constantFrom('login', 'forgot-password', 'magic-link', 'new-password', '', 'admin', '<b>x</b>');

  it('answers every intent without a 5xx, stays on the site and stores nothing when refusing', async () => {
    const post = fc.tuple(intents, formPost(FIELDS), fc.boolean());
    await property(post, 300, async ([intent, { body, contentType }, recovery]) => {
      const before = await db.counts();
      const full = `intent=${encodeURIComponent(intent)}&${body}`;
      // The new-password form needs the e-mailed token, kept in a cookie: a forged one must be refused.
      const cookie = recovery ? 'sv_recovery=%3Cscript%3Ealert(1)%3C%2Fscript%3E' : undefined;
      const answer = await readAnswer(
        await send(server, '/login', { body: full, contentType, cookie }),
        `POST /login ${full.slice(0, 500)}`,
      );
      expectFrenchRefusal(answer, 'POST /login');
      expectLocalRedirect(answer, 'POST /login');
      // No session may come out of garbage, and a refusal writes nothing (a reset or magic link
      // asked for a well-formed address is answered by a redirect, and stores no row of ours).
      expect(answer.setCookies.some((c) => /session_token=[^;]/.test(c))).toBe(false);
      expectSameCounts(before, await db.counts(), 'POST /login');
    });
  });
});

describe('/register', PROPERTY_TIME, () => {
  const FIELDS = [
    'firstName',
    'lastName',
    'email',
    'password',
    'confirmPassword',
    'acceptTerms',
    'redirectTo',
    'website',
  ];

  it('answers any post without a 5xx, in French, and creates no account from a refused one', async () => {
    await property(formPost(FIELDS), 200, async ({ body, contentType }) => {
      const before = await db.counts();
      const answer = await readAnswer(
        await send(server, '/register', { body, contentType }),
        `POST /register ${body.slice(0, 500)}`,
      );
      expectFrenchRefusal(answer, 'POST /register');
      expectLocalRedirect(answer, 'POST /register');
      const signedIn = answer.setCookies.some((c) => /session_token=[^;]/.test(c));
      if (!signedIn) expectSameCounts(before, await db.counts(), 'POST /register');
    });
  });

  it('registers well-formed accounts whatever their names, or refuses them in French', async () => {
    const name = hostileString.filter((s) => s.length <= 100);
    const post = fc.record({ firstName: name, lastName: name }).map((names) =>
      new URLSearchParams({
        ...names,
        email: uniqueEmail('fuzz'),
        password: TEST_PASSWORD,
        confirmPassword: TEST_PASSWORD,
        acceptTerms: 'on',
      }).toString(),
    );
    await property(post, 40, async (body) => {
      const before = await db.counts();
      const answer = await readAnswer(
        await send(server, '/register', { body, contentType: 'application/x-www-form-urlencoded' }),
        `POST /register ${body.slice(0, 500)}`,
      );
      expect(answer.status).toBe(200);
      const signedIn = answer.setCookies.some((c) => /session_token=[^;]/.test(c));
      if (!signedIn) {
        // The refusal says why: a character the database cannot hold, or the sign-up's error.
        expect(answer.text).toMatch(/Erreur|erreur|caractère non autorisé/);
        expectSameCounts(before, await db.counts(), 'POST /register');
      }
    });
  });
});

describe('/setup-super-admin', PROPERTY_TIME, () => {
  const FIELDS = ['email', 'password', 'firstName', 'lastName', 'website'];
  const admins = async () =>
    (await db.query<{ n: number }>(`select count(*)::int as n from "user" where role = 'admin'`))[0]?.n;

  it('while no administrator exists, refuses every invalid post and creates nobody', async () => {
    expect(await admins()).toBe(0);
    // Only posts that cannot be valid (the confirmation never matches): a valid one would rightly
    // create the first administrator.
    const post = formPost(FIELDS).map(({ body, contentType }) => ({
      body: `${body}&confirmPassword=${encodeURIComponent('≠ jamais le même')}`,
      contentType,
    }));
    await property(post, 150, async ({ body, contentType }) => {
      const before = await db.counts();
      const answer = await readAnswer(
        await send(server, '/setup-super-admin', { body, contentType }),
        `POST /setup-super-admin ${body.slice(0, 500)}`,
      );
      expectFrenchRefusal(answer, 'POST /setup-super-admin');
      expect(answer.location).toBeNull();
      expectSameCounts(before, await db.counts(), 'POST /setup-super-admin');
      expect(await admins()).toBe(0);
    });
  });

  it('once an administrator exists, refuses any post, valid or not, and changes nobody', async () => {
    const email = uniqueEmail('admin');
    const response = await send(server, '/api/auth/sign-up/email', {
      body: JSON.stringify({ email, password: TEST_PASSWORD, acceptTerms: true }),
      contentType: 'application/json',
    });
    expect(response.status).toBe(200);
    await setRoleInDatabase(server.databaseUrl, email, 'admin');
    const roles = async () => db.query(`select id, role, email from "user" order by id`);
    const rolesBefore = await roles();
    const valid = fc.constant({
      body: new URLSearchParams({
        email: uniqueEmail('pirate'),
        password: 'Un-Mot-De-Passe-Solide-42',
        confirmPassword: 'Un-Mot-De-Passe-Solide-42',
      }).toString(),
      contentType: 'application/x-www-form-urlencoded' as string | null,
    });
    await property(fc.oneof(formPost([...FIELDS, 'confirmPassword']), valid), 150, async ({ body, contentType }) => {
      const before = await db.counts();
      const answer = await readAnswer(
        await send(server, '/setup-super-admin', { body, contentType }),
        `POST /setup-super-admin ${body.slice(0, 500)}`,
      );
      expectFrenchRefusal(answer, 'POST /setup-super-admin');
      expect(answer.location).toBeNull();
      expectSameCounts(before, await db.counts(), 'POST /setup-super-admin');
    });
    expect(await roles()).toEqual(rolesBefore);
  });
});

describe('Better Auth endpoints', PROPERTY_TIME, () => {
  const ENDPOINTS: Record<string, string[]> = {
    '/sign-up/email': [
      'email',
      'password',
      'name',
      'firstName',
      'lastName',
      'role',
      'callbackURL',
      'rememberMe',
      'acceptTerms',
    ],
    '/sign-in/email': ['email', 'password', 'callbackURL', 'rememberMe'],
    '/forget-password': ['email', 'redirectTo'],
    '/request-password-reset': ['email', 'redirectTo'],
    '/reset-password': ['token', 'newPassword'],
    '/sign-in/magic-link': ['email', 'callbackURL', 'errorCallbackURL', 'name'],
  };

  for (const [path, fields] of Object.entries(ENDPOINTS)) {
    it(`POST /api/auth${path}: no 5xx, a French message, nothing stored when refused`, async () => {
      await property(jsonPost(fields), 120, async ({ body, contentType }) => {
        const before = await db.counts();
        const answer = await readAnswer(
          await send(server, `/api/auth${path}`, { body, contentType }),
          `POST /api/auth${path} ${contentType} ${body.slice(0, 500)}`,
        );
        expectFrenchRefusal(answer, `POST /api/auth${path}`);
        if (answer.status >= 400) expectSameCounts(before, await db.counts(), `POST /api/auth${path}`);
        // Nobody becomes an administrator by asking.
        expect((await db.query(`select 1 from "user" where role = 'admin' and email not like 'admin-%'`)).length).toBe(
          0,
        );
      });
    });
  }
});

describe('regressions found by these properties', PROPERTY_TIME, () => {
  it('refuses a NUL character in a contact message with a French message (it used to be a 500)', async () => {
    const before = await db.counts();
    const body = new URLSearchParams({ name: 'a\u0000b', email: uniqueEmail(), subject: 'Sujet', message: 'Bonjour' });
    const answer = await readAnswer(
      await send(server, '/contact', { body: body.toString(), contentType: 'application/x-www-form-urlencoded' }),
      'POST /contact with NUL',
    );
    expect(answer.status).toBe(400);
    expect(answer.text).toContain('Ce champ contient un caractère non autorisé.');
    expectSameCounts(before, await db.counts(), 'POST /contact with NUL');
  });

  it('answers a form posted as JSON or plain text with a French 400 page (it used to be a 500)', async () => {
    for (const path of ['/contact', '/login', '/register', '/setup-super-admin', '/configurateur']) {
      for (const contentType of ['application/json', 'text/plain', 'multipart/form-data', null]) {
        const answer = await readAnswer(
          await send(server, path, { body: '{"email":"a@b.fr"}', contentType }),
          `POST ${path} as ${contentType}`,
        );
        expect(answer.status, `${path} ${contentType}`).toBe(400);
        expectFrenchRefusal(answer, `POST ${path} as ${contentType}`);
      }
    }
  });

  it('answers a forged list or checkbox value in French (zod used to say "Invalid input")', async () => {
    const body = `name=Jeanne&email=${uniqueEmail()}&subject=S&message=M&phone=0612345678&phone=0612345678&pro=oui`;
    const answer = await readAnswer(
      await send(server, '/contact', { body, contentType: 'application/x-www-form-urlencoded' }),
      'POST /contact with a list',
    );
    expect(answer.status).toBe(400);
    expect(answer.text).toContain('Entrée invalide');
    expect(answer.text).not.toMatch(/Invalid input/);
  });

  it('answers an unknown Better Auth endpoint with a French JSON 404 (it used to be an empty body)', async () => {
    const response = await send(server, '/api/auth/forget-password', {
      body: JSON.stringify({ email: uniqueEmail() }),
      contentType: 'application/json',
    });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({
      code: 'NOT_FOUND',
      message: "Cette adresse ne correspond à aucune action d'authentification.",
    });
  });

  it('refuses a NUL character in a name at sign-up, in French, and stores nothing (it used to fail in the insert)', async () => {
    const before = await db.counts();
    const response = await send(server, '/api/auth/sign-up/email', {
      body: JSON.stringify({
        email: uniqueEmail(),
        password: TEST_PASSWORD,
        firstName: 'Je\u0000anne',
        name: 'x\u0000',
      }),
      contentType: 'application/json',
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { message: string }).message).toBe(
      'Ce champ contient un caractère non autorisé.',
    );
    expectSameCounts(before, await db.counts(), 'sign-up with NUL');
  });
});
