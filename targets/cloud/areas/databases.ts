// Managed databases area of cloud-ref: engines (public) so far.
import type { Api } from '../api.ts';
import { notFound, paginate } from '../api.ts';

const ENGINES = [
  { id: 'mysql/8.0.30', engine: 'mysql', version: '8.0.30' },
  { id: 'mongodb/4.4.10', engine: 'mongodb', version: '4.4.10' },
];

export function registerDatabases(api: Api): void {
  api.endpoint({ method: 'GET', path: '/databases/engines', scope: 'none', grant: 'none' }, (call) => paginate(call, ENGINES, ['engine', 'version']));
  api.endpoint({ method: 'GET', path: '/databases/engines/{engine}/{version}', scope: 'none', grant: 'none' }, (call) => {
    const e = ENGINES.find((x) => x.id === `${call.params.engine}/${call.params.version}`);
    if (!e) throw notFound();
    return { body: e };
  });
}
