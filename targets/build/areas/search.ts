// /search of build-ref (document: "Search"): collections filtered by an xpath predicate in
// `match`, which is mandatory for these routes.
import { linkOf } from '../links.ts';
import { publishedBinaries } from './build.ts';
import { notFound, param, refuse, type Api, type Call } from '../api.ts';
import { compileXPath, XPathError } from '../xpath.ts';
import { attr, elements, parseXml, rootOf, type XmlNode } from '../../../src/clients/xml.ts';
import { holdersOf, svc, valuesOf } from './attributes.ts';
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
  // (api Owner.search, app/models/owner.rb), searched in each owner root project (those carrying
  // SVC:OwnerRootProject, or `project`). `filter` (line 137: role names, comma-separated) names
  // the roles that count; without it the root's attribute values decide (`BugownerOnly`: bugowner),
  // else maintainer and bugowner. `devel` ('0' or 'false' turns it off) makes a binary's package
  // answer with its devel package's owners first; without it the root's attribute value
  // `DisableDevel` turns it off. Here a user owns the projects under home:<user>.
  api.route('GET', '/search/owner', (call) => {
    const [binary, user, group] = ['binary', 'user', 'group'].map((n) => param(call, n));
    if (!binary && !user && !group && !call.faults.has('owner-search-unchecked')) throw refuse(400, 'no_binary', "the owner search needs a 'binary', 'user' or 'group' parameter");
    const named = param(call, 'project');
    const attribute = svc(call.world, 'OwnerRootProject');
    const roots = named ? [named] : holdersOf(call.world, attribute).filter((h) => !h.includes('/'));
    const found: XmlNode[] = [];
    for (const root of roots) {
      const { filter, devel } = ownerSettings(call, root, attribute);
      if (binary) {
        const raw = param(call, 'limit');
        let limit = raw === undefined ? (call.faults.has('owner-limit-default-all') ? 0 : 1) : Number(raw);
        if (limit === 0 && call.faults.has('owner-limit-zero-first')) limit = 1;
        if (limit < 0 && call.faults.has('owner-limit-deepest-first')) limit = 1;
        const matches = findAssignees(call.world, root, binary, devel, filter, limit < 0);
        found.push(...(limit === 0 ? matches : limit < 0 ? matches.slice(-1) : matches.slice(0, limit)));
      } else {
        // By user or group (owner.rb find_containers): the projects and packages of the root's link
        // hierarchy where they hold a role of the filter; `devel` plays no part here.
        found.push(...findContainers(call.world, root, user ? { kind: 'person', name: user } : { kind: 'group', name: group ?? '' }, filter));
      }
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

/** The roles of the build service (its `roles` table): a filter naming another is refused, as Role.find_by_title! does. */
const ROLES = ['maintainer', 'bugowner', 'reviewer', 'downloader', 'reader'];

/**
 * The roles and devel lookup of an owner search in one root (owner.rb Owner.search): `filter` and
 * `devel` as given, else the root's attribute values (`BugownerOnly`, `DisableDevel`), else
 * maintainer and bugowner, devel on. An empty `filter` matches every container with no role asked.
 */
function ownerSettings(call: Call, root: string, attribute: string): { filter: string[]; devel: boolean } {
  const values = valuesOf(call.world, root, attribute) ?? [];
  const given = call.faults.has('owner-filter-ignored') ? undefined : param(call, 'filter');
  const filter = given !== undefined ? given.split(',').filter(Boolean) : values.includes('BugownerOnly') ? ['bugowner'] : ['maintainer', 'bugowner'];
  const unknown = filter.find((r) => !ROLES.includes(r));
  if (unknown) throw notFound(`role '${unknown}' does not exist`);
  const raw = call.faults.has('owner-devel-ignored') ? undefined : param(call, 'devel');
  const devel = raw !== undefined ? !['0', 'false'].includes(raw) : !values.includes('DisableDevel');
  return { filter, devel };
}

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

/** A role one user or group holds in a project or package (its meta's <person userid role/> and <group groupid role/>). */
interface Relation {
  kind: 'person' | 'group';
  name: string;
  role: string;
}

/** Does a relation count under a role filter: its role is one of the filter's. */
const counts = (r: Relation, filter: string[]) => filter.includes(r.role);

const relationsIn = (meta: string): Relation[] => {
  const root = rootOf(parseXml(meta))?.node;
  return [
    ...elements(root, 'person').map((x) => ({ kind: 'person' as const, name: attr(x, 'userid') ?? '', role: attr(x, 'role') ?? '' })),
    ...elements(root, 'group').map((x) => ({ kind: 'group' as const, name: attr(x, 'groupid') ?? '', role: attr(x, 'role') ?? '' })),
  ];
};

/** A package's relations: those its meta names (the project's are looked at where none counts). */
const packageRelations = (k: Package): Relation[] => relationsIn(k.meta);

/** One owner entry as the build service writes it: <person>s and <group>s of the roles found. */
const ownerEntry = (root: string, p: Project, k: Package | undefined, found: Relation[]): XmlNode => ({
  '@rootproject': root,
  '@project': p.name,
  ...(k ? { '@package': k.name } : {}),
  ...(found.some((r) => r.kind === 'person') ? { person: found.filter((r) => r.kind === 'person').map((r) => ({ '@name': r.name, '@role': r.role })) } : {}),
  ...(found.some((r) => r.kind === 'group') ? { group: found.filter((r) => r.kind === 'group').map((r) => ({ '@name': r.name, '@role': r.role })) } : {}),
});

/**
 * owner.rb extract_maintainer: the holders of a role of `filter` in the package, else (without
 * `package`) in its project; none when neither names one. An empty filter takes the container as it is.
 */
function extractMaintainer(root: string, p: Project, k: Package, filter: string[]): XmlNode | undefined {
  if (!filter.length) return ownerEntry(root, p, k, []);
  const own = packageRelations(k).filter((r) => counts(r, filter));
  if (own.length) return ownerEntry(root, p, k, own);
  const inherited = relationsIn(p.meta).filter((r) => filter.includes(r.role));
  return inherited.length ? ownerEntry(root, p, undefined, inherited) : undefined;
}

/**
 * package.rb resolve_devel_package: the package's <devel project package/> (project and package
 * default to its own), else its project's <devel project/> (the package of the same name there),
 * followed to its end; the package itself where none is named, none where a named one is missing.
 */
function resolveDevelPackage(world: World, p: Project, k: Package): [Project, Package] | undefined {
  let cur: [Project, Package] = [p, k];
  const seen = new Set<string>();
  for (;;) {
    const [cp, ck] = cur;
    const own = elements(rootOf(parseXml(ck.meta))?.node, 'devel')[0];
    const wide = own ? undefined : elements(rootOf(parseXml(cp.meta))?.node, 'devel')[0];
    if (!own && !wide) return cur;
    const key = `${cp.name}/${ck.name}`;
    if (seen.has(key)) return cur; // a cycle: the build service refuses to store one
    seen.add(key);
    const np = world.projects.get((own ? attr(own, 'project') : attr(wide, 'project')) ?? cp.name);
    const nk = np?.packages.get((own ? attr(own, 'package') : undefined) ?? ck.name);
    if (!np || np.deleted || !nk || nk.deleted) return undefined;
    cur = [np, nk];
  }
}

/** owner.rb lookup_package_owner's step for one package: its devel package first (when `devel`), then itself. */
function ownersOfPackage(world: World, root: string, p: Project, k: Package, devel: boolean, filter: string[]): XmlNode | undefined {
  const dev = devel ? resolveDevelPackage(world, p, k) : undefined;
  return (dev && extractMaintainer(root, dev[0], dev[1], filter)) ?? extractMaintainer(root, p, k, filter);
}

/**
 * owner.rb find_assignees: every package of the binary's name in the root's link hierarchy, in
 * link order, gives its owners (lookup_package_owner: where none holds a role of the filter, the
 * package of that name deeper in its own project's hierarchy, the first that does, or the last
 * one when `deepest`).
 */
function findAssignees(world: World, root: string, binary: string, devel: boolean, filter: string[], deepest: boolean): XmlNode[] {
  const checked = new Set<Package>();
  const out: XmlNode[] = [];
  for (const p of linkHierarchy(world, root)) {
    const k = p.packages.get(binary);
    if (!k || k.deleted || checked.has(k)) continue;
    checked.add(k);
    let m = ownersOfPackage(world, root, p, k, devel, filter);
    if (!m) {
      for (const q of linkHierarchy(world, p.name)) {
        const l = q.packages.get(binary);
        if (!l || l.deleted || checked.has(l)) continue;
        checked.add(l);
        m = ownersOfPackage(world, root, q, l, devel, filter);
        if (m && !deepest) break;
      }
    }
    if (m) out.push(m);
  }
  return out;
}

/** owner.rb find_containers: the projects, then the packages, of the root's link hierarchy where `who` holds a role of `filter`. */
function findContainers(world: World, root: string, who: { kind: 'person' | 'group'; name: string }, filter: string[]): XmlNode[] {
  const holds = (rs: Relation[]) => rs.some((r) => r.kind === who.kind && r.name === who.name && counts(r, filter));
  const hierarchy = linkHierarchy(world, root);
  return [
    ...hierarchy.filter((p) => holds(relationsIn(p.meta))).map((p) => ({ '@rootproject': root, '@project': p.name })),
    ...hierarchy.flatMap((p) => [...p.packages.values()].filter((k) => !k.deleted && holds(packageRelations(k))).map((k) => ({ '@rootproject': root, '@project': p.name, '@package': k.name }))),
  ];
}
