import { parseWithZod } from '@conform-to/zod/v4';
import { Form, useLocation, useNavigate } from 'react-router';
import { CustomerDetailsDialog, CustomersTable } from '~/components/admin/customers-table';
import { TabError } from '~/components/admin/tab-error';
import { Button } from '~/components/ui/button';
import { Input } from '~/components/ui/input';
import { profileSchema } from '~/domain/account/schemas';
import { parseCustomerListParams, withParams } from '~/domain/admin/list-params';
import { requireStaff } from '~/server/admin/access.server';
import { getCustomerDetails, listCustomers, updateCustomerDetails } from '~/server/admin/customers.server';
import { readFormData } from '~/server/form-data.server';
import type { Route } from './+types/customers';

/* The Clients tab: customer accounts, searched, sorted and paginated on the server; `?client=<id>` opens the details. */

export async function loader({ request }: Route.LoaderArgs) {
  await requireStaff(request, 'customers');
  const url = new URL(request.url);
  const params = parseCustomerListParams(url.searchParams);
  const customerId = url.searchParams.get('client');
  const [page, details] = await Promise.all([
    listCustomers(params),
    customerId && customerId.length <= 100 ? getCustomerDetails(customerId) : Promise.resolve(null),
  ]);
  return { params, page, details };
}

/** « Modifier les coordonnées » of an account (the dialog's form). */
export async function action({ request }: Route.ActionArgs) {
  const staff = await requireStaff(request, 'customers');
  const form = await readFormData(request);
  const submission = parseWithZod(form, { schema: profileSchema });
  const customerId = String(form.get('customerId') ?? '');
  if (form.get('intent') !== 'update-customer' || customerId.length > 100) {
    return { ok: false, result: submission.reply({ formErrors: ['Demande inconnue'] }) };
  }
  if (submission.status !== 'success') return { ok: false, result: submission.reply() };
  const saved = await updateCustomerDetails(customerId, submission.value, staff.id);
  if (!saved) return { ok: false, result: submission.reply({ formErrors: ['Ce client n’existe plus'] }) };
  return { ok: true, result: submission.reply() };
}

export default function CustomersTab({ loaderData }: Route.ComponentProps) {
  const location = useLocation();
  const navigate = useNavigate();
  const current = new URLSearchParams(location.search);
  const close = () =>
    navigate(withParams(current, { client: null, page: current.get('page') }), { preventScrollReset: true });
  return (
    <div className="flex flex-col gap-4">
      <Form method="get" role="search" className="flex gap-2" aria-label="Rechercher un client">
        <label htmlFor="recherche-clients" className="sr-only">
          Rechercher un client par nom ou email
        </label>
        <Input
          id="recherche-clients"
          name="q"
          type="search"
          defaultValue={loaderData.params.q}
          key={loaderData.params.q}
          placeholder="Nom ou email du client"
        />
        <Button type="submit" variant="outline">
          Rechercher
        </Button>
      </Form>
      <CustomersTable page={loaderData.page} params={loaderData.params} />
      {loaderData.details ? <CustomerDetailsDialog customer={loaderData.details} onClose={close} /> : null}
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <TabError error={error} />;
}
