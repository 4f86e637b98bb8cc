// Section "Search" of build-service-api.md: `match` is an xpath predicate, mandatory unless stated.
import { check, type BuildCheckContext } from '../../src/core/check.ts';
import { brief, childEntries, childValues, expectNot2xx, expectServed, isCollection, saysNotServed, xmlValues } from './support.ts';

const section = 'Search (all GET, return collections; `match` is an xpath predicate, mandatory unless stated)';
const file = 'build-service-api.md';

export const matchMandatory = check(
  {
    id: 'build.search.match-mandatory',
    title: 'Search routes without match are refused',
    protocol: 'build',
    section,
    level: 'SHOULD',
    spec: { file, line: 134, quote: '`match` is an xpath predicate, mandatory unless stated' },
    touches: ['GET /search/channel/binary', 'GET /search/issue', 'GET /search/package', 'GET /search/project', 'GET /search/published/binary/id', 'GET /search/published/pattern/id', 'GET /search/published/repoinfo/id', 'GET /search/released/binary', 'GET /search/request'],
    faults: ['search-match-optional', 'published-search-match-optional'],
  },
  async (ctx) => {
    // Every search route of lines 135-136 but the /id routes of the searches that have a full
    // form (see match-mandatory-id-routes): no route there states that match may be left out.
    const routes = ['/search/project', '/search/package', '/search/request', '/search/issue', '/search/channel/binary', '/search/released/binary', ...PUBLISHED_ROUTES];
    await expectMatchMandatory(ctx, routes);
  },
);

/**
 * A predicate each search route answers with a collection (the positive control of a refusal
 * without match): one that selects nothing in particular, on an attribute the build service's
 * xpath engine (or its backend, for /search/published) knows for that route.
 */
function controlMatch(route: string): string {
  if (route.startsWith('/search/request')) return "@id='0'";
  if (route.startsWith('/search/published/repoinfo')) return "@project='conformance-no-such-project'";
  return "@name='conformance-no-such-name'";
}

/**
 * For each route: first the same route with a match must answer a collection (else the route is
 * not judged: not served here, or its predicate not taken), then the route without match must be
 * refused (not a 2xx). Inconclusive when no route passed its control.
 */
async function expectMatchMandatory(ctx: BuildCheckContext, routes: string[]): Promise<void> {
  const caller = ctx.build.as('user');
  const untested: string[] = [];
  for (const route of routes) {
    const match = controlMatch(route);
    const control = await caller.get(route, { query: { match } });
    if (!isCollection(control)) {
      untested.push(`${route} (with match=${match}: ${saysNotServed(control) ? 'not served, ' : ''}${brief(control)})`);
      continue;
    }
    expectNot2xx(await caller.get(route), `GET ${route} without match (with match=${match} it answers a collection)`);
  }
  if (untested.length === routes.length) ctx.inconclusive(`no search route answered a collection with a match, so a refusal without one shows nothing: ${untested.join('; ')}`);
  if (untested.length) ctx.note(`not tested, as these did not answer a collection with a match: ${untested.join('; ')}`);
}

/** The searches of published binaries, repositories and patterns (line 136): /id routes with no full form. */
const PUBLISHED_ROUTES = ['/search/published/binary/id', '/search/published/repoinfo/id', '/search/published/pattern/id'];

export const matchMandatoryIdRoutes = check(
  {
    id: 'build.search.match-mandatory-id-routes',
    title: 'The /id search routes without match are refused too',
    protocol: 'build',
    section,
    // As match-mandatory: that a missing mandatory parameter is refused is read from "mandatory".
    level: 'SHOULD',
    spec: { file, line: 134, quote: '`match` is an xpath predicate, mandatory unless stated' },
    touches: ['GET /search/channel/binary/id', 'GET /search/package/id', 'GET /search/project/id', 'GET /search/released/binary/id'],
    faults: ['search-match-optional', 'search-id-match-optional'],
  },
  async (ctx) => {
    // Line 135 states nothing of these routes that would make match optional.
    await expectMatchMandatory(ctx, ['/search/project/id', '/search/package/id', '/search/channel/binary/id', '/search/released/binary/id']);
  },
);

export const matchFilters = check(
  {
    id: 'build.search.match-filters',
    title: 'The match predicate selects what the collection holds',
    protocol: 'build',
    section,
    level: 'MUST',
    // That the predicate selects is stated on line 134 (line 135 only names the route).
    spec: { file, line: 134, quote: '`match` is an xpath predicate' },
    touches: ['GET /search/package'],
    faults: ['search-match-ignored'],
  },
  async (ctx) => {
    const pkg = ctx.build.fixture(ctx.build.fixtures.package, 'package');
    const caller = ctx.build.as('user');
    // The document shows neither what a predicate's paths refer to nor the collection's elements:
    // `@name` is the package name as the build service reads it, and a collection names the
    // package wherever it does (xmlValues).
    const hit = expectServed(await caller.get('/search/package', { query: { match: `@name='${pkg}'` } }), `GET /search/package?match=@name='${pkg}'`);
    if (!xmlValues(hit).has(pkg)) {
      ctx.inconclusive(`GET /search/package?match=@name='${pkg}' does not name package ${pkg} (this server's packages may not match @name): a selecting predicate cannot be told from one that selects nothing: ${brief(hit)}`);
    }
    const miss = expectServed(await caller.get('/search/package', { query: { match: "@name='conformance-no-such-package'" } }), "GET /search/package?match=@name='conformance-no-such-package'");
    ctx.expect(!xmlValues(miss).has(pkg), `GET /search/package?match=@name='conformance-no-such-package' still lists package ${pkg}: ${brief(miss)}`);
  },
);

export const matchFiltersProjects = check(
  {
    id: 'build.search.match-filters-projects',
    title: 'The match predicate selects what the project collections hold, in the full and the /id form',
    protocol: 'build',
    section,
    level: 'MUST',
    // That the predicate selects is stated on line 134 (line 135 only names the routes).
    spec: { file, line: 134, quote: '`match` is an xpath predicate' },
    touches: ['GET /search/project', 'GET /search/project/id'],
    faults: ['search-match-ignored'],
  },
  async (ctx) => {
    const project = ctx.build.fixture(ctx.build.fixtures.project, 'project');
    const caller = ctx.build.as('user');
    // As match-filters: `@name` is the project name as the build service reads it, and a
    // collection names the project wherever it does (xmlValues).
    for (const route of ['/search/project', '/search/project/id']) {
      const hit = expectServed(await caller.get(route, { query: { match: `@name='${project}'` } }), `GET ${route}?match=@name='${project}'`);
      if (!xmlValues(hit).has(project)) {
        ctx.inconclusive(`GET ${route}?match=@name='${project}' does not name project ${project} (this server's projects may not match @name): a selecting predicate cannot be told from one that selects nothing: ${brief(hit)}`);
      }
      const other = 'conformance-no-such-project';
      const miss = expectServed(await caller.get(route, { query: { match: `@name='${other}'` } }), `GET ${route}?match=@name='${other}'`);
      ctx.expect(!xmlValues(miss).has(project), `GET ${route}?match=@name='${other}' still lists project ${project}: ${brief(miss)}`);
    }
  },
);

export const matchFiltersPublished = check(
  {
    id: 'build.search.match-filters-published-binaries',
    title: 'The match predicate selects what the published binary collection holds',
    protocol: 'build',
    section,
    level: 'MUST',
    // That the predicate selects is stated on line 134 (line 136 only names the route).
    spec: { file, line: 134, quote: '`match` is an xpath predicate' },
    touches: ['GET /search/published/binary/id'],
    faults: ['search-match-ignored', 'published-search-match-ignored'],
  },
  async (ctx) => {
    const project = ctx.build.fixture(ctx.build.fixtures.project, 'project');
    const pkg = ctx.build.fixture(ctx.build.fixtures.package, 'package');
    const caller = ctx.build.as('user');
    const route = '/search/published/binary/id';
    // The binaries of the fixture package, published where the fixture is built: `@name` and
    // `@project` as the build service's backend reads a published binary (a binary named as its
    // package, as a spec file's main package is). Inconclusive where none is published.
    const match = `@name='${pkg}' and @project='${project}'`;
    const hit = expectServed(await caller.get(route, { query: { match } }), `GET ${route}?match=${match}`);
    if (!xmlValues(hit).has(pkg)) {
      ctx.inconclusive(`GET ${route}?match=${match} names no binary ${pkg}: the fixture package has no published binary of its name here (or the predicate's paths differ), so a selecting predicate cannot be told from one that selects nothing: ${brief(hit)}`);
    }
    const other = `@name='conformance-no-such-binary' and @project='${project}'`;
    const miss = expectServed(await caller.get(route, { query: { match: other } }), `GET ${route}?match=${other}`);
    ctx.expect(!xmlValues(miss).has(pkg), `GET ${route}?match=${other} still lists the binary ${pkg}: ${brief(miss)}`);
  },
);

/**
 * The published binaries of fixtures.publishedProject (else fixtures.project), as a set-up read:
 * `@project`, as the build service's backend reads a published binary. Inconclusive unless it
 * finds `atLeast` of them (each an element the collection holds: line 43 shows no structure).
 */
async function publishedOfProject(ctx: BuildCheckContext, atLeast: number, query: Record<string, string> = {}) {
  const project = ctx.build.fixtures.publishedProject ?? ctx.build.fixture(ctx.build.fixtures.project, 'project');
  const route = '/search/published/binary/id';
  const match = `@project='${project}'`;
  const what = `GET ${route}?match=${match}${Object.entries(query).map(([k, v]) => `&${k}=${v}`).join('')}`;
  const res = await ctx.setup(`search the published binaries of ${project}`, async () => expectServed(await ctx.build.as('user').get(route, { query: { match, ...query } }), what), {
    seeAlso: 'build.search.match-filters-published-binaries',
  });
  if (childEntries(res).length < atLeast) {
    ctx.inconclusive(`${what} finds ${childEntries(res).length} published binar${childEntries(res).length === 1 ? 'y' : 'ies'}: fixtures.publishedProject (else fixtures.project) needs ${atLeast} or more published binaries for this: ${brief(res)}`);
  }
  return { route, match, project, res };
}

export const publishedLimit = check(
  {
    id: 'build.search.published-limit',
    title: '`limit` on /search/published/binary/id gives at most that many results',
    protocol: 'build',
    section,
    level: 'MUST',
    spec: { file, line: 184, quote: '`limit` parameters: requests, search results, statistics and status messages' },
    touches: ['GET /search/published/binary/id'],
    faults: ['published-search-limit-ignored'],
    reliesOn: ['build.search.match-filters-published-binaries'],
  },
  async (ctx) => {
    // Two or more matches without limit (line 136 names `limit` for this route): else limit=1 shows nothing.
    const { route, match } = await publishedOfProject(ctx, 2);
    const res = expectServed(await ctx.build.as('user').get(route, { query: { match, limit: 1 } }), `GET ${route}?match=${match}&limit=1`);
    const n = childEntries(res).length;
    ctx.expect(n <= 1, `GET ${route}?match=${match}&limit=1 gives ${n} results, more than the limit 1: ${brief(res)}`);
  },
);

export const publishedWithDownloadUrl = check(
  {
    id: 'build.search.published-withdownloadurl',
    title: 'With `withdownloadurl`, each result of /search/published/binary/id carries a download URL',
    protocol: 'build',
    section,
    level: 'SHOULD',
    spec: { file, line: 136, quote: 'also `limit`, `withdownloadurl` (bool)' },
    touches: ['GET /search/published/binary/id'],
    faults: ['published-search-downloadurl-ignored'],
    reliesOn: ['build.search.match-filters-published-binaries'],
  },
  async (ctx) => {
    // Read from the parameter's name only: a download URL (a value naming a path, with `/`) that
    // the same search without it does not name, in every result. Where and under which name the
    // answer writes it is not shown (line 43).
    const { route, match, res: without } = await publishedOfProject(ctx, 1);
    const res = expectServed(await ctx.build.as('user').get(route, { query: { match, withdownloadurl: 1 } }), `GET ${route}?match=${match}&withdownloadurl=1`);
    const before = xmlValues(without);
    const results = childValues(res);
    ctx.expect(results.length > 0, `GET ${route}?match=${match}&withdownloadurl=1 gives no result, where the same search without it gives ${childEntries(without).length}: ${brief(res)}`);
    const bare = results.filter((values) => ![...values].some((v) => v.includes('/') && !before.has(v)));
    ctx.expect(bare.length === 0, `GET ${route}?match=${match}&withdownloadurl=1: ${bare.length} of ${results.length} results name no download URL (no value with a '/' that the search without withdownloadurl does not name): ${brief(res)}`);
  },
);

/** A search for the owners of what the ordinary user maintains: the owner search at work on this instance (a set-up step). */
async function ownerSearchWorks(ctx: BuildCheckContext): Promise<void> {
  const user = ctx.build.username('user');
  await ctx.setup(`search the owners of what ${user} maintains`, async () => {
    const res = expectServed(await ctx.build.as('user').get('/search/owner', { query: { user } }), `GET /search/owner?user=${user}`);
    ctx.expect(isCollection(res), `GET /search/owner?user=${user}: expected a collection, got ${brief(res)}`);
  }, {
    seeAlso: 'build.search.owner-needs-parameter',
  });
}

export const ownerNeedsParameter = check(
  {
    id: 'build.search.owner-needs-parameter',
    title: '/search/owner is refused without binary, user or group, and served with user',
    protocol: 'build',
    section,
    // That a search missing the required parameter is refused is read from "(one required)" only.
    level: 'SHOULD',
    spec: { file, line: 137, quote: '/search/owner: `binary`, `user` or `group` (one required)' },
    touches: ['GET /search/owner'],
    faults: ['owner-search-unchecked'],
  },
  async (ctx) => {
    // Served with one of them first: an instance whose owner search cannot run at all (the build
    // service needs a project with the owner root attribute, line 137's `attribute`) would refuse
    // the search below for that reason, not for the missing parameter.
    await ownerSearchWorks(ctx);
    expectNot2xx(await ctx.build.as('user').get('/search/owner'), 'GET /search/owner without binary, user or group');
  },
);

export const missingOwnerWithoutParameters = check(
  {
    id: 'build.search.missing-owner-without-parameters',
    title: '/search/missing_owner is served without any parameter (no match either)',
    protocol: 'build',
    section,
    level: 'MUST',
    spec: { file, line: 137, quote: '/search/missing_owner: no required parameter' },
    touches: ['GET /search/missing_owner', 'GET /search/owner'],
    faults: ['missing-owner-needs-match'],
    reliesOn: ['build.search.owner-needs-parameter'],
  },
  async (ctx) => {
    await ownerSearchWorks(ctx);
    const res = expectServed(await ctx.build.as('user').get('/search/missing_owner'), 'GET /search/missing_owner without parameters');
    // A collection, as the search routes return them (the section's heading); the build service writes <collection>.
    ctx.expect(isCollection(res), `GET /search/missing_owner: expected a collection, got ${brief(res)}`);
  },
);

/**
 * The owner entries /search/owner gives for fixtures.ownedBinary (in fixtures.ownerRootProject
 * where named) with `limit`, or without it. The document shows no structure (line 43): an entry is
 * an element the collection holds, compared by its values (childEntries).
 */
async function ownersOfBinary(ctx: BuildCheckContext, limit?: number): Promise<{ entries: string[]; what: string; text: string }> {
  const binary = ctx.build.fixture(ctx.build.fixtures.ownedBinary, 'ownedBinary');
  const project = ctx.build.fixtures.ownerRootProject;
  const query = { binary, ...(project ? { project } : {}), ...(limit === undefined ? {} : { limit }) };
  const what = `GET /search/owner?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString()}`;
  const res = expectServed(await ctx.build.as('user').get('/search/owner', { query }), what);
  return { entries: childEntries(res), what, text: brief(res) };
}

/** A set-up read of the owners of the fixture binary (another limit's rule: see `seeAlso`). */
const ownersRead = (ctx: BuildCheckContext, limit: number | undefined, seeAlso: string) =>
  ctx.setup(`search the owners of fixtures.ownedBinary${limit === undefined ? '' : ` with limit=${limit}`}`, () => ownersOfBinary(ctx, limit), { seeAlso });

/** Inconclusive unless every match (limit=0) is two or more: one owner shows nothing of `limit`. */
function needsTwoMatches(ctx: BuildCheckContext, all: { entries: string[]; what: string; text: string }): void {
  if (all.entries.length < 2) {
    ctx.inconclusive(`${all.what} gives ${all.entries.length} owner entr${all.entries.length === 1 ? 'y' : 'ies'}: fixtures.ownedBinary must be owned at two or more levels for limit to show: ${all.text}`, { seeAlso: 'build.search.owner-limit-zero-all' });
  }
}

export const ownerLimitDefaultOne = check(
  {
    id: 'build.search.owner-limit-default-one',
    title: '/search/owner by binary gives one match without limit',
    protocol: 'build',
    section,
    level: 'MUST',
    spec: { file, line: 137, quote: '`limit` (default 1; 0 all; -1 deepest match; effective with binary)' },
    touches: ['GET /search/owner'],
    faults: ['owner-limit-default-all'],
  },
  async (ctx) => {
    needsTwoMatches(ctx, await ownersRead(ctx, 0, 'build.search.owner-limit-zero-all'));
    const first = await ownersOfBinary(ctx);
    ctx.expect(first.entries.length === 1, `${first.what} (no limit: default 1) gives ${first.entries.length} owner entries, not 1: ${first.text}`);
  },
);

export const ownerLimitZeroAll = check(
  {
    id: 'build.search.owner-limit-zero-all',
    title: '/search/owner by binary with limit=0 gives every match, the default one and the deepest included',
    protocol: 'build',
    section,
    level: 'MUST',
    spec: { file, line: 184, quote: '/search/owner default 1 (0 all, -1 deepest match)' },
    touches: ['GET /search/owner'],
    faults: ['owner-limit-zero-first'],
  },
  async (ctx) => {
    const first = await ownersRead(ctx, undefined, 'build.search.owner-limit-default-one');
    const deepest = await ownersRead(ctx, -1, 'build.search.owner-limit-deepest');
    const all = await ownersOfBinary(ctx, 0);
    // The matches the other limits gave are matches: all of them are among every match.
    const known = new Set([...first.entries, ...deepest.entries]);
    if (known.size < 2) needsTwoMatches(ctx, all);
    const every = new Set(all.entries);
    const missing = [...known].filter((e) => !every.has(e));
    ctx.expect(missing.length === 0, `${all.what} (all matches) leaves out ${missing.length} match(es) that ${first.what} or ${deepest.what} gave: ${all.text}`);
  },
);

export const ownerLimitDeepest = check(
  {
    id: 'build.search.owner-limit-deepest',
    title: '/search/owner by binary with limit=-1 gives one match, the deepest, not the first the default gives',
    protocol: 'build',
    section,
    // "-1 deepest match" is stated on line 137 as "default 1" is (owner-limit-default-one, MUST):
    // the same wording on the same line, the same level (rubric 1). That the default's one match is
    // the first (so not the deepest where there are two levels) is how a limit counts.
    level: 'MUST',
    spec: { file, line: 137, quote: '-1 deepest match' },
    touches: ['GET /search/owner'],
    faults: ['owner-limit-deepest-first'],
  },
  async (ctx) => {
    const all = await ownersRead(ctx, 0, 'build.search.owner-limit-zero-all');
    needsTwoMatches(ctx, all);
    const first = await ownersRead(ctx, undefined, 'build.search.owner-limit-default-one');
    const deepest = await ownersOfBinary(ctx, -1);
    ctx.expect(deepest.entries.length === 1, `${deepest.what} (the deepest match) gives ${deepest.entries.length} owner entries, not 1: ${deepest.text}`);
    ctx.expect(all.entries.includes(deepest.entries[0]), `${deepest.what} gives an owner entry that ${all.what} (all matches) does not: ${deepest.text}`);
    // With matches at two or more levels, the first match (default 1) is not the deepest one.
    ctx.expect(!first.entries.includes(deepest.entries[0]), `${deepest.what} gives the same match as ${first.what} (the first), though fixtures.ownedBinary is matched at two or more levels: ${deepest.text}`);
  },
);

/**
 * A search of /search/owner by binary (in fixtures.ownerRootProject where named) with further
 * parameters, answered with a collection (else the check fails here).
 */
async function ownerSearch(ctx: BuildCheckContext, query: Record<string, string>) {
  const project = ctx.build.fixtures.ownerRootProject;
  const full = { ...query, ...(project ? { project } : {}) };
  const what = `GET /search/owner?${new URLSearchParams(full).toString()}`;
  const res = expectServed(await ctx.build.as('user').get('/search/owner', { query: full }), what);
  return { res, what, values: xmlValues(res), entries: childEntries(res) };
}

export const ownerFilterRoles = check(
  {
    id: 'build.search.owner-filter-roles',
    title: '/search/owner by binary with `filter` naming one role names the holders of that role, not those of another',
    protocol: 'build',
    section,
    // Read from the parameter's name ("role names"): the roles that count as owners. Which roles
    // count without it, how several are written and what the entries look like are not shown.
    level: 'SHOULD',
    spec: { file, line: 137, quote: '`filter` (role names)' },
    touches: ['GET /search/owner'],
    faults: ['owner-filter-ignored'],
    reliesOn: ['build.search.owner-needs-parameter'],
  },
  async (ctx) => {
    const binary = ctx.build.fixture(ctx.build.fixtures.ownedBinary, 'ownedBinary');
    const roles = Object.entries(ctx.build.fixture(ctx.build.fixtures.ownerRoles, 'ownerRoles'));
    if (roles.length < 2) ctx.inconclusive(`fixtures.ownerRoles names ${roles.length} role(s): two or more roles, each held by another user, are needed to tell a filter from none`);
    // An answer is read by its values (line 43: structure not shown): a login that is also a role
    // name would be named by any entry of that role.
    const clash = roles.find(([, login]) => roles.some(([role]) => role === login));
    if (clash) ctx.inconclusive(`fixtures.ownerRoles names the user ${clash[1]}, whose login is a role name: an answer naming that role cannot be told from one naming that user`);
    await ownerSearchWorks(ctx);
    for (const [role, login] of roles) {
      const { what, values, res } = await ownerSearch(ctx, { binary, filter: role });
      ctx.expect(values.has(login), `${what} does not name ${login}, who holds the role ${role} where ${binary} is first matched (fixtures.ownerRoles): ${brief(res)}`);
      const others = roles.filter(([r, l]) => r !== role && l !== login && values.has(l)).map(([r, l]) => `${l} (${r})`);
      ctx.expect(others.length === 0, `${what} names ${others.join(', ')}, who hold${others.length === 1 ? 's' : ''} another role than ${role} there (fixtures.ownerRoles): ${brief(res)}`);
    }
  },
);

export const ownerDevel = check(
  {
    id: 'build.search.owner-devel',
    title: '/search/owner by binary with devel=1 names the devel package\'s owners, with devel=0 the package\'s own',
    protocol: 'build',
    section,
    // Read from the parameter's name only: whether the devel package is looked at. Its default is
    // not stated (docs/open-choices.md: the variant leaves it off), so both values are given.
    level: 'SHOULD',
    spec: { file, line: 137, quote: '`binary`, `user` or `group` (one required), `devel`' },
    touches: ['GET /search/owner'],
    faults: ['owner-devel-ignored'],
    reliesOn: ['build.search.owner-needs-parameter'],
  },
  async (ctx) => {
    const { binary, develProject } = ctx.build.fixture(ctx.build.fixtures.ownerDevel, 'ownerDevel');
    await ownerSearchWorks(ctx);
    const on = await ownerSearch(ctx, { binary, devel: '1' });
    ctx.expect(on.values.has(develProject), `${on.what} does not name ${develProject}, where the devel package of ${binary}'s package is (fixtures.ownerDevel): ${brief(on.res)}`);
    const off = await ownerSearch(ctx, { binary, devel: '0' });
    ctx.expect(off.entries.length > 0, `${off.what} gives no owner entry, where the package of ${binary} has owners of its own (fixtures.ownerDevel): ${brief(off.res)}`);
    ctx.expect(!off.values.has(develProject), `${off.what} still names ${develProject}, the devel package's project, though devel=0: ${brief(off.res)}`);
  },
);

export const checks = [matchMandatory, matchMandatoryIdRoutes, matchFilters, matchFiltersProjects, matchFiltersPublished, publishedLimit, publishedWithDownloadUrl, ownerNeedsParameter, missingOwnerWithoutParameters, ownerLimitDefaultOne, ownerLimitZeroAll, ownerLimitDeepest, ownerFilterRoles, ownerDevel];
