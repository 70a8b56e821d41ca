import type { SubmissionResult } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod/v4';
import { LayoutDashboardIcon, LogOutIcon, RefreshCwIcon } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import {
  data,
  Form,
  Link,
  redirect,
  type ShouldRevalidateFunctionArgs,
  useNavigation,
  useRevalidator,
  useSearchParams,
} from 'react-router';
import { BUSINESS_PROFILE_INTENTS, BusinessProfileForm } from '~/components/account/business-profile-form';
import { DraftsList } from '~/components/account/drafts-list';
import { GiftCardsList } from '~/components/account/gift-cards-list';
import { InvoicesList } from '~/components/account/invoices-list';
import { OrdersList } from '~/components/account/orders-list';
import { ProfileForm } from '~/components/account/profile-form';
import { toWithdrawalView } from '~/components/account/withdrawal-view';
import { EmailVerificationNotice } from '~/components/auth/email-verification-notice';
import { type ServerToast, ServerToastFallback, useServerToast } from '~/components/auth/toast-messages';
import { Alert } from '~/components/ui/alert';
import { Button } from '~/components/ui/button';
import { Pagination } from '~/components/ui/pagination';
import { Spinner } from '~/components/ui/spinner';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '~/components/ui/tabs';
import { toast } from '~/components/ui/toaster';
import { useHydrated } from '~/components/use-hydrated';
import { profileSchema } from '~/domain/account/schemas';
import { withdrawalState } from '~/domain/account/withdrawal';
import { businessFormValues } from '~/domain/invoices/business-buyer';
import { businessProfileSchema } from '~/domain/invoices/business-profile';
import { workshopStageLabel } from '~/domain/order-status';
import { can } from '~/domain/staff/permissions';
import { cookieHeaders } from '~/server/account/auth-calls.server';
import { consumeFlash, flashCookie } from '~/server/account/cookies.server';
import {
  listCustomerDrafts,
  listCustomerInvoices,
  listCustomerOrders,
  pageNumber,
} from '~/server/account/orders.server';
import { getProfile, updateProfile } from '~/server/account/users.server';
import { loginRedirectPath, requireUser } from '~/server/auth/session.server';
import { readFormData } from '~/server/form-data.server';
import { loadBusinessProfile, saveBusinessProfile } from '~/server/invoices/business-buyers.server';
import { log } from '~/server/log.server';
import { accountGiftCards } from '~/server/vouchers/gift-card-views.server';
import type { Route } from './+types/profile';

/*
 * /profile, "Mon compte": the signed-in customer's orders,
 * invoices and profile, in tabs whose choice is in the address (?tab=), so that each works
 * before JavaScript loads and can be linked to. Orders and invoices are the customer's own only,
 * one page at a time. « Cartes cadeaux » (decision 037) lists the cards the customer bought; its
 * tab shows once there is one (or when asked for by its address, as the buyer's e-mail does).
 * « Profil » also keeps the business identity that prefills the checkout (« Facturation
 * professionnelle », docs/invoicing.md): saved and removed by their own intents, one's own only.
 * Administrators also get a button to /admin.
 */

const TABS = ['commandes', 'factures', 'cartes-cadeaux', 'profil'] as const;
type Tab = (typeof TABS)[number];

function tabOf(value: string | null): Tab {
  return TABS.includes(value as Tab) ? (value as Tab) : 'commandes';
}

export const LOAD_ERROR = 'Erreur lors du chargement des données';

export const meta: Route.MetaFunction = () => [
  { title: 'Mon compte | Soovenirs' },
  { name: 'robots', content: 'noindex' },
];

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' });

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const url = new URL(request.url);
  const tab = tabOf(url.searchParams.get('tab'));
  const { flash, setCookie } = consumeFlash(request, '/profile');
  const headers = cookieHeaders(setCookie);
  const account = {
    firstName: user.firstName,
    email: user.email,
    isAdmin: can(user.role, 'dashboard'),
    emailVerified: user.emailVerified,
  };
  try {
    const now = new Date();
    const [profile, business, orders, invoices, drafts, giftCards] = await Promise.all([
      getProfile(user.id),
      loadBusinessProfile(user.id),
      listCustomerOrders(user.id, pageNumber(url.searchParams.get('page'))),
      listCustomerInvoices(user.id, pageNumber(url.searchParams.get('factures'))),
      // Drafts never confirmed, apart from the orders.
      listCustomerDrafts(user.id, pageNumber(url.searchParams.get('brouillons'))),
      accountGiftCards(user.id, now),
    ]);
    if (!profile) throw redirect(loginRedirectPath(request));
    return data(
      {
        ok: true as const,
        tab,
        account,
        flash: flash as ServerToast | null,
        profile,
        business: { defaults: businessFormValues(business), saved: business !== null },
        orders: {
          ...orders,
          rows: orders.rows.map((row) => ({
            id: row.id,
            number: row.number,
            createdAt: row.createdAt,
            status: row.status,
            // The workshop's stage while the order is in its hands; the status says the rest. A gift
            // card's sale never reaches the workshop.
            stageLabel:
              row.kind !== 'gift_card' && (row.status === 'processing' || row.status === 'completed')
                ? workshopStageLabel(row.stage)
                : null,
            totalPriceCents: row.totalPriceCents,
            items: row.items,
            invoiceNumber: row.invoiceNumber,
            filesOnline: row.filesOnline,
            withdrawal: toWithdrawalView(withdrawalState(row, now)),
          })),
        },
        invoices,
        drafts,
        giftCards: giftCards.map((card) => ({
          id: card.id,
          saleOrderNumber: card.saleOrderNumber,
          maskedCode: card.maskedCode,
          initialCents: card.initialCents,
          balanceCents: card.balanceCents,
          state: card.state,
          expiresAt: card.expiresAt,
          recipientName: card.recipientName,
          recipientEmail: card.recipientEmail,
          sendsAt: card.sendsAt,
          pdfHref: card.pdfHref,
        })),
      },
      { headers },
    );
  } catch (error) {
    if (error instanceof Response) throw error;
    log.error({ err: error }, 'the account page could not load its data');
    return data({ ok: false as const, tab, account, flash: flash as ServerToast | null }, { status: 500, headers });
  }
}

/** The forms of the « Profil » tab: each answer names its form, whose fields get the messages. */
type ProfileForms = 'profile' | 'business';

function saveFailed(form: ProfileForms, reply: SubmissionResult<string[]>, message: string) {
  return {
    form,
    submission: reply,
    toast: {
      kind: 'error',
      title: 'Erreur de mise à jour',
      description: message,
      id: crypto.randomUUID(),
    } satisfies ServerToast as ServerToast,
  };
}

export async function action({ request }: Route.ActionArgs) {
  const user = await requireUser(request);
  const formData = await readFormData(request);
  const intent = formData.get('intent');
  if (intent === BUSINESS_PROFILE_INTENTS.save || intent === BUSINESS_PROFILE_INTENTS.remove) {
    return businessAction(user.id, intent, formData);
  }
  if (intent !== 'update-profile') throw data(null, { status: 400 });
  const submission = parseWithZod(formData, { schema: profileSchema });
  if (submission.status !== 'success') {
    return { form: 'profile' as ProfileForms, submission: submission.reply(), toast: null };
  }
  try {
    if (!(await updateProfile(user.id, submission.value))) throw redirect(loginRedirectPath(request));
  } catch (error) {
    if (error instanceof Response) throw error;
    log.error({ err: error }, 'the profile could not be saved');
    const message = 'Impossible de mettre à jour votre profil. Veuillez réessayer.';
    return saveFailed('profile', submission.reply({ formErrors: [message] }), message);
  }
  throw redirect('/profile?tab=profil', { headers: cookieHeaders(flashCookie('profile-updated', '/profile')) });
}

/**
 * « Facturation professionnelle »: saves the business identity checked like at checkout (a wrong
 * field changes nothing and says why on it), or removes it. One's own profile only: the user is
 * the session's.
 */
async function businessAction(
  userId: string,
  intent: (typeof BUSINESS_PROFILE_INTENTS)[keyof typeof BUSINESS_PROFILE_INTENTS],
  formData: FormData,
) {
  const remove = intent === BUSINESS_PROFILE_INTENTS.remove;
  const submission = remove ? null : parseWithZod(formData, { schema: businessProfileSchema });
  if (submission && submission.status !== 'success') {
    return { form: 'business' as ProfileForms, submission: submission.reply(), toast: null };
  }
  try {
    await saveBusinessProfile(userId, submission?.status === 'success' ? submission.value : null);
  } catch (error) {
    log.error({ err: error }, 'the business profile could not be saved');
    const message = 'Impossible d’enregistrer votre facturation professionnelle. Veuillez réessayer.';
    return saveFailed(
      'business',
      submission?.reply({ formErrors: [message] }) ?? { status: 'error', error: { '': [message] } },
      message,
    );
  }
  const flash = remove ? 'business-profile-removed' : 'business-profile-saved';
  throw redirect('/profile?tab=profil', { headers: cookieHeaders(flashCookie(flash, '/profile')) });
}

/** Switching tabs changes the address only: no need to read the orders again. */
export function shouldRevalidate({
  currentUrl,
  nextUrl,
  formMethod,
  defaultShouldRevalidate,
}: ShouldRevalidateFunctionArgs) {
  if (formMethod || currentUrl.pathname !== nextUrl.pathname) return defaultShouldRevalidate;
  const withoutTab = (url: URL) => {
    const params = new URLSearchParams(url.search);
    params.delete('tab');
    params.sort();
    return params.toString();
  };
  if (withoutTab(currentUrl) === withoutTab(nextUrl)) return false;
  return defaultShouldRevalidate;
}

export default function Profile({ loaderData, actionData }: Route.ComponentProps) {
  const hydrated = useHydrated();
  const [searchParams] = useSearchParams();
  const tab = tabOf(searchParams.get('tab'));
  const revalidator = useRevalidator();
  const navigation = useNavigation();
  const [refreshedAt, setRefreshedAt] = useState(0);
  const latestOk = useRef(loaderData.ok);
  latestOk.current = loaderData.ok;
  useServerToast(loaderData.flash);
  useServerToast(actionData?.toast);

  // A failed load says so once, as a toast.
  useEffect(() => {
    if (!loaderData.ok && refreshedAt === 0) {
      toast.error('Erreur de chargement', { description: 'Impossible de charger vos données. Veuillez réessayer.' });
    }
  }, [loaderData.ok, refreshedAt]);

  useEffect(() => {
    if (refreshedAt === 0) return;
    if (latestOk.current) toast.success('Commandes actualisées');
    else
      toast.error('Erreur d’actualisation', { description: 'Impossible de charger vos données. Veuillez réessayer.' });
  }, [refreshedAt]);

  const refresh = () => {
    revalidator.revalidate().then(
      () => setRefreshedAt(Date.now()),
      () => {
        latestOk.current = false;
        setRefreshedAt(Date.now());
      },
    );
  };
  const refreshing = revalidator.state === 'loading';
  const signingOut = navigation.state !== 'idle' && navigation.formAction === '/logout';

  const hrefFor = (next: Tab, extra: Record<string, string> = {}) => {
    const params = new URLSearchParams(searchParams);
    params.set('tab', next);
    for (const [key, value] of Object.entries(extra)) params.set(key, value);
    return `?${params}`;
  };

  return (
    <section
      aria-labelledby="account-title"
      data-hydrated={hydrated}
      className="mx-auto flex w-full max-w-6xl flex-1 flex-col gap-6 px-4 py-10 sm:px-6"
    >
      <ServerToastFallback value={loaderData.flash} />
      {loaderData.account.emailVerified ? null : <EmailVerificationNotice />}
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div className="flex flex-col gap-1">
          <h1 id="account-title" className="text-title">
            Mon compte
          </h1>
          <p className="text-muted-foreground">
            {loaderData.account.firstName ? `Bonjour ${loaderData.account.firstName} · ` : ''}
            {loaderData.account.email}
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          {loaderData.account.isAdmin ? (
            <Button asChild variant="accent">
              <Link to="/admin">
                <LayoutDashboardIcon aria-hidden="true" />
                Administration
              </Link>
            </Button>
          ) : null}
          <Form method="post" action="/logout">
            <Button type="submit" variant="outline" disabled={signingOut}>
              <LogOutIcon aria-hidden="true" />
              Se déconnecter
            </Button>
          </Form>
        </div>
      </div>

      {loaderData.ok ? (
        <Tabs value={tab} activationMode="manual">
          <TabsList aria-label="Rubriques du compte">
            {(
              [
                ['commandes', 'Commandes'],
                ['factures', 'Factures'],
                ['cartes-cadeaux', 'Cartes cadeaux'],
                ['profil', 'Profil'],
              ] as const
            )
              .filter(([value]) => value !== 'cartes-cadeaux' || loaderData.giftCards.length > 0 || tab === value)
              .map(([value, label]) => (
                <TabsTrigger key={value} value={value} asChild>
                  <Link to={hrefFor(value)} replace preventScrollReset>
                    {label}
                  </Link>
                </TabsTrigger>
              ))}
          </TabsList>

          <TabsContent value="commandes" className="flex flex-col gap-4">
            <div className="flex flex-wrap items-center justify-between gap-3">
              <h2 className="font-semibold text-xl">Mes commandes</h2>
              <Button variant="outline" size="sm" onClick={refresh} disabled={refreshing}>
                {refreshing ? <Spinner label="Actualisation…" /> : <RefreshCwIcon aria-hidden="true" />}
                Actualiser
              </Button>
            </div>
            <OrdersList rows={loaderData.orders.rows} />
            <Pagination
              label="Pages des commandes"
              page={loaderData.orders.page}
              pageCount={loaderData.orders.pageCount}
              hrefFor={(page) => hrefFor('commandes', { page: String(page) })}
            />
            <DraftsList rows={loaderData.drafts.rows} />
            <Pagination
              label="Pages des brouillons"
              page={loaderData.drafts.page}
              pageCount={loaderData.drafts.pageCount}
              hrefFor={(page) => hrefFor('commandes', { brouillons: String(page) })}
            />
          </TabsContent>

          <TabsContent value="factures" className="flex flex-col gap-4">
            <h2 className="font-semibold text-xl">Mes factures</h2>
            <InvoicesList rows={loaderData.invoices.rows} />
            <Pagination
              label="Pages des factures"
              page={loaderData.invoices.page}
              pageCount={loaderData.invoices.pageCount}
              hrefFor={(page) => hrefFor('factures', { factures: String(page) })}
            />
          </TabsContent>

          <TabsContent value="cartes-cadeaux" className="flex flex-col gap-4">
            <h2 className="font-semibold text-xl">Mes cartes cadeaux</h2>
            <GiftCardsList rows={loaderData.giftCards} />
          </TabsContent>

          <TabsContent value="profil" className="flex flex-col gap-4">
            <h2 className="font-semibold text-xl">Mes informations</h2>
            <ProfileForm
              profile={loaderData.profile}
              lastResult={actionData?.form === 'profile' ? actionData.submission : undefined}
            />
            <BusinessProfileForm
              // Saved or removed: the form starts again from what the profile now keeps.
              key={JSON.stringify(loaderData.business.defaults)}
              defaults={loaderData.business.defaults}
              saved={loaderData.business.saved}
              lastResult={actionData?.form === 'business' ? actionData.submission : undefined}
            />
          </TabsContent>
        </Tabs>
      ) : (
        <Alert
          variant="danger"
          title={LOAD_ERROR}
          action={
            <Button onClick={refresh} disabled={refreshing}>
              {refreshing ? <Spinner label="Chargement…" /> : null}
              Réessayer
            </Button>
          }
        />
      )}
    </section>
  );
}
