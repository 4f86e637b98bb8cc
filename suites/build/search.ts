// Section "Search" of build-service-api.md: `match` is an xpath predicate, mandatory unless stated.
import { check } from '../../src/core/check.ts';
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

export const checks = [matchMandatory, matchFilters];
