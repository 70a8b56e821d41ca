import { useLocation } from 'react-router';
import { withParams } from '~/domain/admin/list-params';

/**
 * The address of another page of a back-office list, keeping its filters and sort. Another list's
 * page parameter (`apage`) leaves this page's `page` as it is.
 */
export function usePageHref(param = 'page'): (page: number) => string {
  const location = useLocation();
  const current = new URLSearchParams(location.search);
  return (p) => withParams(current, param === 'page' ? { page: p } : { [param]: p, page: current.get('page') });
}
