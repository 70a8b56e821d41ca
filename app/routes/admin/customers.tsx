import { Form, useLocation, useNavigate } from 'react-router';
import { CustomerDetailsDialog, CustomersTable } from '~/components/admin/customers-table';
import { TabError } from '~/components/admin/tab-error';
import { Button } from '~/components/ui/button';
import { Input } from '~/components/ui/input';
import { parseCustomerListParams, withParams } from '~/domain/admin/list-params';
import { requireAdminUser } from '~/server/admin/access.server';
import { getCustomerDetails, listCustomers } from '~/server/admin/customers.server';
import type { Route } from './+types/customers';

/* The Clients tab: customer accounts, searched, sorted and paginated on the server; `?client=<id>` opens the details. */

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdminUser(request);
  const url = new URL(request.url);
  const params = parseCustomerListParams(url.searchParams);
  const customerId = url.searchParams.get('client');
  const [page, details] = await Promise.all([
    listCustomers(params),
    customerId && customerId.length <= 100 ? getCustomerDetails(customerId) : Promise.resolve(null),
  ]);
  return { params, page, details };
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
