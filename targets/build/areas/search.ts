// /search of build-ref (document: "Search"): collections filtered by an xpath predicate in
// `match`, which is mandatory for these routes.
import { linkOf } from '../links.ts';
import { publishedBinaries } from './build.ts';
import { param, refuse, type Api, type Call } from '../api.ts';
import { compileXPath, XPathError } from '../xpath.ts';
import { attr, elements, parseXml, rootOf, type XmlNode } from '../../../src/clients/xml.ts';
import { holdersOf, svc } from './attributes.ts';
import type { Package, Project, World } from '../world.ts';
import { renderRequest, requestsOf } from './requests.ts';

/**
 * The predicate of `match`, mandatory on every search route here (line 134: "mandatory unless
 * stated"). `kind` names the route's family for the faults that break one family only: `id` the
 * /id routes (served without match by the build service 2.9, search_controller.rb), `published`
 * the /search/published routes (which the build service hands to its backend).
 */
function matcher(call: Call, kind: 'full' | 'id' | 'published' = 'full') {
  const match = param(call, 'match');
  const optional = call.faults.has('search-match-optional') || (kind === 'id' && call.faults.has('search-id-match-optional')) || (kind === 'published' && call.faults.has('published-search-match-optional'));
  if (!match && !optional) throw refuse(400, 'missing_parameter', 'match (an xpath predicate) is required');
  try {
    if (!match || call.faults.has('search-match-ignored') || (kind === 'published' && call.faults.has('published-search-match-ignored'))) return () => true;
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
      const keep = matcher(call, idOnly ? 'id' : 'full');
      const found = [...call.world.projects.values()].filter((p) => !p.deleted).map((p) => ({ '@name': p.name, title: p.name })).filter(keep);
      return { xml: { collection: { '@matches': String(found.length), project: limited(call, found).map((p) => (idOnly ? { '@name': p['@name'] } : p)) } } };
    });
  }
  for (const [route, idOnly] of [['/search/package', false], ['/search/package/id', true]] as const) {
    api.route('GET', route, (call) => {
      const keep = matcher(call, idOnly ? 'id' : 'full');
      const found = [...call.world.projects.values()]
        .filter((p) => !p.deleted)
        .flatMap((p) =>
          [...p.packages.values()]
            .filter((k) => !k.deleted)
            .map((k) => {
              // A link's package carries <linkinfo project package/>, as the build service's search sees it.
              const link = linkOf(p, k);
              return { '@name': k.name, '@project': p.name, title: k.name, ...(link ? { linkinfo: { '@project': link.project, '@package': link.package } } : {}) };
            }),
        )
        .filter(keep);
      return { xml: { collection: { '@matches': String(found.length), package: limited(call, found).map((k) => (idOnly ? { '@name': k['@name'], '@project': k['@project'] } : k)) } } };
    });
  }

  // /search/owner: one of `binary`, `user` or `group` is required (line 137); the answer is the
  // build service's <collection><owner rootproject project package><person name role/></owner>
  // (api Owner.search, app/models/owner.rb). By binary, as the service does: in each owner root
  // project (those carrying SVC:OwnerRootProject, or `project`), the projects of its link
  // hierarchy in link order (the root first), where a package of the binary's name is; its
  // owners are the package's <person>s, else its project's (then without `package`). `limit`
  // (line 137, 184): 1 by default, the first match; 0 every match; -1 the deepest match only.
  // Here a user owns the projects under home:<user>.
  api.route('GET', '/search/owner', (call) => {
    const [binary, user, group] = ['binary', 'user', 'group'].map((n) => param(call, n));
    if (!binary && !user && !group && !call.faults.has('owner-search-unchecked')) throw refuse(400, 'no_binary', "the owner search needs a 'binary', 'user' or 'group' parameter");
    const live = [...call.world.projects.values()].filter((p) => !p.deleted);
    const named = param(call, 'project');
    const roots = named ? [named] : holdersOf(call.world, svc(call.world, 'OwnerRootProject')).filter((h) => !h.includes('/'));
    let found: XmlNode[] = [];
    if (binary) {
      const raw = param(call, 'limit');
      let limit = raw === undefined ? (call.faults.has('owner-limit-default-all') ? 0 : 1) : Number(raw);
      if (limit === 0 && call.faults.has('owner-limit-zero-first')) limit = 1;
      if (limit < 0 && call.faults.has('owner-limit-deepest-first')) limit = 1;
      for (const root of roots) {
        const matches = linkHierarchy(call.world, root).flatMap((p) => [...p.packages.values()].filter((k) => !k.deleted && k.name === binary).map((k) => ownersOf(root, p, k)));
        found.push(...(limit === 0 ? matches : limit < 0 ? matches.slice(-1) : matches.slice(0, limit)));
      }
    } else if (user) {
      found = live.filter((p) => ownerOf(p.name) === user).map((p) => ({ '@rootproject': roots[0] ?? '', '@project': p.name, person: { '@name': user, '@role': 'maintainer' } }));
    }
    return { xml: { collection: { owner: found } } };
  });
  // Issues, channels, released and published binaries (line 135-136): collections in the build
  // service's layouts. No issue tracker references or channels exist here: their searches find nothing.
  for (const route of ['/search/issue', '/search/channel/binary', '/search/channel/binary/id']) {
    api.route('GET', route, (call) => {
      matcher(call, route.endsWith('/id') ? 'id' : 'full');
      return { xml: { collection: { '@matches': '0' } } };
    });
  }
  const binaryOf = (b: ReturnType<typeof publishedBinaries>[number]) => {
    const m = /^(.+)-([^-]+)-([^-]+)\.([^.]+)\.rpm$/.exec(b.filename);
    return { '@name': m?.[1] ?? b.filename, '@version': m?.[2] ?? '', '@release': m?.[3] ?? '', '@arch': m?.[4] ?? b.arch, '@project': b.project, '@repository': b.repository, '@package': b.package, '@filename': b.filename, '@filepath': `${b.project.replace(/:/g, ':/')}/${b.repository}/${m?.[4] ?? b.arch}/${b.filename}`, '@baseproject': b.project.split(':')[0], '@type': 'rpm' };
  };
  // Released binaries: those a `release` command put into a release target.
  for (const [route, idOnly] of [['/search/released/binary', false], ['/search/released/binary/id', true]] as const) {
    api.route('GET', route, (call) => {
      const keep = matcher(call, idOnly ? 'id' : 'full');
      const found = publishedBinaries(call.world).filter((b) => b.released).map((b) => {
        const x = binaryOf(b);
        return { '@name': x['@name'], '@version': x['@version'], '@release': x['@release'], '@arch': x['@arch'], '@project': x['@project'], '@repository': x['@repository'], '@package': x['@package'] };
      }).filter(keep);
      return { xml: { collection: { '@matches': String(found.length), binary: limited(call, found).map((b) => (idOnly ? { '@name': b['@name'], '@project': b['@project'], '@repository': b['@repository'], '@arch': b['@arch'] } : b)) } } };
    });
  }
  api.route('GET', '/search/published/binary/id', (call) => {
    const keep = matcher(call, 'published');
    const withUrl = param(call, 'withdownloadurl') !== undefined && param(call, 'withdownloadurl') !== '0' && !call.faults.has('published-search-downloadurl-ignored');
    const found = publishedBinaries(call.world).map(binaryOf).filter(keep);
    return { xml: { collection: { '@matches': String(found.length), binary: (call.faults.has('published-search-limit-ignored') ? found : limited(call, found)).map((b) => (withUrl ? { ...b, '@downloadurl': `/published/${b['@project']}/${b['@repository']}/${b['@arch']}/${b['@filename']}` } : b)) } } };
  });
  api.route('GET', '/search/published/repoinfo/id', (call) => {
    const keep = matcher(call, 'published');
    const seen = new Map<string, Record<string, string>>();
    for (const b of publishedBinaries(call.world)) seen.set(`${b.project}/${b.repository}`, { '@project': b.project, '@repository': b.repository, '@name': `${b.project}/${b.repository}`, '@baseproject': b.project.split(':')[0] });
    const found = [...seen.values()].filter(keep);
    return { xml: { collection: { '@matches': String(found.length), repoinfo: limited(call, found) } } };
  });
  api.route('GET', '/search/published/pattern/id', (call) => {
    matcher(call, 'published');
    return { xml: { collection: { '@matches': '0' } } };
  });

  // /search/missing_owner: no parameter is required; packages of the owner root project without an owner (none here).
  api.route('GET', '/search/missing_owner', (call) => {
    if (call.faults.has('missing-owner-needs-match') && !param(call, 'match')) throw refuse(400, 'missing_parameter', 'match (an xpath predicate) is required');
    return { xml: { collection: {} } };
  });
}

/** Who maintains a project here: the user of a home project, else the admin. */
const ownerOf = (project: string) => /^home:([^:]+)/.exec(project)?.[1] ?? 'Admin';


/** A project and the projects it links to (<link project/> in its meta), recursively, in link order: the build service's expand_all_projects. */
function linkHierarchy(world: World, root: string): Project[] {
  const out: Project[] = [];
  const visit = (name: string) => {
    const p = world.projects.get(name);
    if (!p || p.deleted || out.includes(p)) return;
    out.push(p);
    for (const link of elements(rootOf(parseXml(p.meta))?.node, 'link')) visit(attr(link, 'project') ?? '');
  };
  visit(root);
  return out;
}

/** The <person>s of a meta document, as owner entries write them. */
const personsOf = (meta: string) => elements(rootOf(parseXml(meta))?.node, 'person').map((x) => ({ '@name': attr(x, 'userid') ?? '', '@role': attr(x, 'role') ?? '' }));

/** One owner entry: the package's maintainers, else its project's (without `package`), else whoever maintains the project here (ownerOf). */
function ownersOf(root: string, p: Project, k: Package): XmlNode {
  const own = personsOf(k.meta);
  if (own.length) return { '@rootproject': root, '@project': p.name, '@package': k.name, person: own };
  const inherited = personsOf(p.meta);
  if (inherited.length) return { '@rootproject': root, '@project': p.name, person: inherited };
  return { '@rootproject': root, '@project': p.name, '@package': k.name, person: { '@name': ownerOf(p.name), '@role': 'maintainer' } };
}
