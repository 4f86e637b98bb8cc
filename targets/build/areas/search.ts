// /search of build-ref (document: "Search"): collections filtered by an xpath predicate in
// `match`, which is mandatory for these routes.
import { param, refuse, type Api, type Call } from '../api.ts';
import { compileXPath, XPathError } from '../xpath.ts';
import { renderRequest, requestsOf } from './requests.ts';

function matcher(call: Call) {
  const match = param(call, 'match');
  if (!match && !call.faults.has('search-match-optional')) throw refuse(400, 'missing_parameter', 'match (an xpath predicate) is required');
  try {
    if (!match || call.faults.has('search-match-ignored')) return () => true;
    return compileXPath(match);
  } catch (err) {
    if (err instanceof XPathError) throw refuse(400, 'illegal_xpath', err.message);
    throw err;
  }
}

function limited<T>(call: Call, list: T[]): T[] {
  const limit = param(call, 'limit');
  return limit === undefined ? list : list.slice(0, Math.max(0, Number(limit)));
}

export function registerSearch(api: Api): void {
  api.route('GET', '/search/request', (call) => {
    const keep = matcher(call);
    const found = limited(call, [...requestsOf(call.world).values()].map((r) => renderRequest(r, false, call.variant)).filter(keep));
    return { xml: { collection: { '@matches': String(found.length), request: found } } };
  });
  for (const [route, idOnly] of [['/search/project', false], ['/search/project/id', true]] as const) {
    api.route('GET', route, (call) => {
      const keep = matcher(call);
      const found = [...call.world.projects.values()].filter((p) => !p.deleted).map((p) => ({ '@name': p.name, title: p.name })).filter(keep);
      return { xml: { collection: { '@matches': String(found.length), project: limited(call, found).map((p) => (idOnly ? { '@name': p['@name'] } : p)) } } };
    });
  }
  for (const [route, idOnly] of [['/search/package', false], ['/search/package/id', true]] as const) {
    api.route('GET', route, (call) => {
      const keep = matcher(call);
      const found = [...call.world.projects.values()]
        .filter((p) => !p.deleted)
        .flatMap((p) => [...p.packages.values()].filter((k) => !k.deleted).map((k) => ({ '@name': k.name, '@project': p.name, title: k.name })))
        .filter(keep);
      return { xml: { collection: { '@matches': String(found.length), package: limited(call, found).map((k) => (idOnly ? { '@name': k['@name'], '@project': k['@project'] } : k)) } } };
    });
  }

  // /search/owner: one of `binary`, `user` or `group` is required (line 137); the answer is the
  // build service's <collection><owner rootproject project package><person name role/></owner>.
  // Here a user owns the projects under home:<user>; a binary is owned where a package of its name is.
  api.route('GET', '/search/owner', (call) => {
    const [binary, user, group] = ['binary', 'user', 'group'].map((n) => param(call, n));
    if (!binary && !user && !group && !call.faults.has('owner-search-unchecked')) throw refuse(400, 'no_binary', "the owner search needs a 'binary', 'user' or 'group' parameter");
    const live = [...call.world.projects.values()].filter((p) => !p.deleted);
    const owner = (project: string, pkg?: string) => ({ '@rootproject': 'conformance:fixture', '@project': project, ...(pkg ? { '@package': pkg } : {}), person: { '@name': ownerOf(project), '@role': 'maintainer' } });
    const found = binary
      ? live.flatMap((p) => [...p.packages.values()].filter((k) => !k.deleted && k.name === binary).map((k) => owner(p.name, k.name)))
      : user
        ? live.filter((p) => ownerOf(p.name) === user).map((p) => owner(p.name))
        : [];
    return { xml: { collection: { owner: found } } };
  });
  // /search/missing_owner: no parameter is required; packages of the owner root project without an owner (none here).
  api.route('GET', '/search/missing_owner', (call) => {
    if (call.faults.has('missing-owner-needs-match') && !param(call, 'match')) throw refuse(400, 'missing_parameter', 'match (an xpath predicate) is required');
    return { xml: { collection: {} } };
  });
}

/** Who maintains a project here: the user of a home project, else the admin. */
const ownerOf = (project: string) => /^home:([^:]+)/.exec(project)?.[1] ?? 'Admin';

