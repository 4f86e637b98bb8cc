// Section "Search" of build-service-api.md: `match` is an xpath predicate, mandatory unless stated.
import { check, type BuildCheckContext } from '../../src/core/check.ts';
import { brief, expect2xx, expectNot2xx, xmlValues } from './support.ts';

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
    faults: ['search-match-optional'],
  },
  async (ctx) => {
    const caller = ctx.build.as('user');
    for (const route of ['/search/project', '/search/package']) expectNot2xx(await caller.get(route), `GET ${route} without match`);
  },
);

export const matchFilters = check(
  {
    id: 'build.search.match-filters',
    title: 'The match predicate selects what the collection holds',
    protocol: 'build',
    section,
    level: 'MUST',
    spec: { file, line: 135, quote: '/search/package and /search/package/id' },
    faults: ['search-match-ignored'],
  },
  async (ctx) => {
    const pkg = ctx.build.fixture(ctx.build.fixtures.package, 'package');
    const caller = ctx.build.as('user');
    // The document shows neither what a predicate's paths refer to nor the collection's elements:
    // `@name` is the package name as the build service reads it, and a collection names the
    // package wherever it does (xmlValues).
    const hit = expect2xx(await caller.get('/search/package', { query: { match: `@name='${pkg}'` } }), `GET /search/package?match=@name='${pkg}'`);
    if (!xmlValues(hit).has(pkg)) {
      ctx.inconclusive(`GET /search/package?match=@name='${pkg}' does not name package ${pkg} (this server's packages may not match @name): a selecting predicate cannot be told from one that selects nothing: ${brief(hit)}`);
    }
    const miss = expect2xx(await caller.get('/search/package', { query: { match: "@name='conformance-no-such-package'" } }), "GET /search/package?match=@name='conformance-no-such-package'");
    ctx.expect(!xmlValues(miss).has(pkg), `GET /search/package?match=@name='conformance-no-such-package' still lists package ${pkg}: ${brief(miss)}`);
  },
);

/** A search for the owners of what the ordinary user maintains: the owner search at work on this instance (a set-up step). */
async function ownerSearchWorks(ctx: BuildCheckContext): Promise<void> {
  const user = ctx.build.username('user');
  await ctx.setup(`search the owners of what ${user} maintains`, async () => expect2xx(await ctx.build.as('user').get('/search/owner', { query: { user } }), `GET /search/owner?user=${user}`), {
    seeAlso: 'build.search.owner-needs-parameter',
  });
}

export const ownerNeedsParameter = check(
  {
    id: 'build.search.owner-needs-parameter',
    title: '/search/owner is refused without binary, user or group, and served with user',
    protocol: 'build',
    section,
    level: 'MUST',
    spec: { file, line: 137, quote: '/search/owner: `binary`, `user` or `group` (one required)' },
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
    faults: ['missing-owner-needs-match'],
  },
  async (ctx) => {
    await ownerSearchWorks(ctx);
    const res = expect2xx(await ctx.build.as('user').get('/search/missing_owner'), 'GET /search/missing_owner without parameters');
    ctx.expect(res.xml !== undefined, `GET /search/missing_owner: expected a collection (a structured document), got ${brief(res)}`);
  },
);

export const checks = [matchMandatory, matchFilters, ownerNeedsParameter, missingOwnerWithoutParameters];
