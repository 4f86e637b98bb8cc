// Section "Build results" of build-service-api.md. Result shapes are not shown, so these checks
// ask only what a body names (xmlValues) or how many elements it holds (childCount); they read
// the fixture project (fixtures.project / package / repository / arch) and change nothing there.
import type { BuildCaller } from '../../src/clients/build/session.ts';
import { check, type BuildCheckContext } from '../../src/core/check.ts';
import { brief, childCount, contentType, entryNames, expect2xx, expectNot2xx, xmlValues } from './support.ts';

const section = 'Build results';
const file = 'build-service-api.md';

export interface BuildFixture {
  caller: BuildCaller;
  project: string;
  pkg: string;
  repo: string;
  arch: string;
}

/** The fixture project, package, repository and architecture (skips the check when one is not configured). */
export function buildFixture(ctx: BuildCheckContext, role: 'user' | 'admin' = 'user'): BuildFixture {
  const f = ctx.build.fixtures;
  return {
    caller: ctx.build.as(role),
    project: ctx.build.fixture(f.project, 'project'),
    pkg: ctx.build.fixture(f.package, 'package'),
    repo: ctx.build.fixture(f.repository, 'repository'),
    arch: ctx.build.fixture(f.arch, 'arch'),
  };
}

/** Another package of the fixture project, for filters: one the filtered answer must not name. */
async function otherPackage(ctx: BuildCheckContext, f: BuildFixture): Promise<string> {
  const listing = entryNames(expect2xx(await f.caller.get(`/source/${f.project}`), `GET /source/${f.project}`));
  const other = listing.find((n) => n && n !== f.pkg && !n.includes(f.pkg) && !f.pkg.includes(n));
  if (!other) ctx.skip(`the fixture project ${f.project} needs a second package for a filter to leave out`);
  return other!;
}

export const listingLevels = check(
  {
    id: 'build.build-results.listing-levels',
    title: 'GET /build/<project>, /<repository>, /<arch> list repositories, architectures and packages',
    protocol: 'build',
    section,
    level: 'MUST',
    spec: { file, line: 119, quote: 'GET /build/<project>/<repository> (architectures); GET /build/<project>/<repository>/<arch> (packages)' },
    faults: ['build-arch-listing-empty'],
  },
  async (ctx) => {
    const f = buildFixture(ctx);
    const levels: [string, string, string][] = [
      [`/build/${f.project}`, f.repo, 'repository'],
      [`/build/${f.project}/${f.repo}`, f.arch, 'architecture'],
      [`/build/${f.project}/${f.repo}/${f.arch}`, f.pkg, 'package'],
    ];
    for (const [path, name, what] of levels) {
      const res = expect2xx(await f.caller.get(path), `GET ${path}`);
      ctx.expect(xmlValues(res).has(name), `GET ${path} does not name the fixture ${what} ${name}: ${brief(res)}`);
    }
  },
);

export const resultFilters = check(
  {
    id: 'build.build-results.result-filters',
    title: '_result takes package, arch and repository filters, repeatable',
    protocol: 'build',
    section,
    level: 'MUST',
    spec: { file, line: 124, quote: 'GET /build/<project>/_result: params `package`, `arch`, `repository` (repeatable)' },
    faults: ['result-filters-ignored'],
  },
  async (ctx) => {
    const f = buildFixture(ctx);
    const other = await otherPackage(ctx, f);
    const path = `/build/${f.project}/_result`;
    const one = expect2xx(await f.caller.get(path, { query: { package: f.pkg } }), `GET ${path}?package=${f.pkg}`);
    ctx.expect(xmlValues(one).has(f.pkg), `GET ${path}?package=${f.pkg} does not name ${f.pkg}: ${brief(one)}`);
    ctx.expect(!xmlValues(one).has(other), `GET ${path}?package=${f.pkg} also reports package ${other}: ${brief(one)}`);
    const both = expect2xx(await f.caller.get(path, { query: { package: [f.pkg, other] } }), `GET ${path}?package=${f.pkg}&package=${other}`);
    ctx.expect(xmlValues(both).has(f.pkg) && xmlValues(both).has(other), `GET ${path} with package repeated does not report both ${f.pkg} and ${other}: ${brief(both)}`);

    const archs = [...xmlValues(expect2xx(await f.caller.get(`/build/${f.project}/${f.repo}`), `GET /build/${f.project}/${f.repo}`))];
    const otherArch = archs.find((a) => a && a !== f.arch);
    if (otherArch) {
      const byArch = expect2xx(await f.caller.get(path, { query: { arch: f.arch, repository: f.repo } }), `GET ${path}?arch=${f.arch}&repository=${f.repo}`);
      ctx.expect(!xmlValues(byArch).has(otherArch), `GET ${path}?arch=${f.arch}&repository=${f.repo} also reports architecture ${otherArch}: ${brief(byArch)}`);
    }
  },
);

export const builddepinfoFilter = check(
  {
    id: 'build.build-results.builddepinfo-package-filter',
    title: 'GET _builddepinfo answers for the packages named by `package`, all by default',
    protocol: 'build',
    section,
    level: 'MUST',
    spec: { file, line: 121, quote: 'GET of the same path returns dependency information (`package` filter; all packages by default)' },
    faults: ['builddepinfo-filter-ignored'],
  },
  async (ctx) => {
    const f = buildFixture(ctx);
    const other = await otherPackage(ctx, f);
    const path = `/build/${f.project}/${f.repo}/${f.arch}/_builddepinfo`;
    const all = expect2xx(await f.caller.get(path), `GET ${path}`);
    ctx.expect(xmlValues(all).has(f.pkg) && xmlValues(all).has(other), `GET ${path} without a filter does not cover both ${f.pkg} and ${other}: ${brief(all)}`);
    const one = expect2xx(await f.caller.get(path, { query: { package: f.pkg } }), `GET ${path}?package=${f.pkg}`);
    ctx.expect(xmlValues(one).has(f.pkg), `GET ${path}?package=${f.pkg} does not name ${f.pkg}: ${brief(one)}`);
    ctx.expect(!xmlValues(one).has(other), `GET ${path}?package=${f.pkg} also answers for ${other}: ${brief(one)}`);
  },
);

export const jobhistoryLimit = check(
  {
    id: 'build.build-results.jobhistory-limit',
    title: 'GET _jobhistory?limit=1 holds at most one finished build',
    protocol: 'build',
    section,
    level: 'SHOULD',
    spec: { file, line: 122, quote: 'GET .../<arch>/_jobhistory (`package`, `code`, `limit`)' },
    faults: ['jobhistory-limit-ignored'],
  },
  async (ctx) => {
    const f = buildFixture(ctx);
    const path = `/build/${f.project}/${f.repo}/${f.arch}/_jobhistory`;
    const all = childCount(expect2xx(await f.caller.get(path), `GET ${path}`));
    if (all < 2) ctx.skip(`GET ${path} holds ${all} build(s): a limit of 1 cannot be told from no limit`);
    const limited = expect2xx(await f.caller.get(path, { query: { limit: 1 } }), `GET ${path}?limit=1`);
    ctx.expect(childCount(limited) <= 1, `GET ${path}?limit=1 holds ${childCount(limited)} entries (${all} without the limit): ${brief(limited)}`);
  },
);

/** The fixture package's build log on the fixture repository and architecture. */
async function fullLog(f: BuildFixture) {
  const path = `/build/${f.project}/${f.repo}/${f.arch}/${f.pkg}/_log`;
  return { path, res: expect2xx(await f.caller.get(path, { query: { nostream: 1 } }), `GET ${path}?nostream=1`) };
}

export const logIsText = check(
  {
    id: 'build.build-results.log-is-text',
    title: 'GET .../<package>/_log returns text',
    protocol: 'build',
    section,
    level: 'MUST',
    spec: { file, line: 126, quote: 'Returns text.' },
    faults: ['log-not-text'],
  },
  async (ctx) => {
    const { path, res } = await fullLog(buildFixture(ctx));
    ctx.expect(contentType(res).startsWith('text/'), `GET ${path}: expected a text/* body, got ${contentType(res) || 'no content type'}`);
  },
);

export const logByteRange = check(
  {
    id: 'build.build-results.log-byte-range',
    title: '_log with start and end returns those bytes of the log',
    protocol: 'build',
    section,
    level: 'MUST',
    spec: { file, line: 126, quote: '`start` (bytes), `end` (bytes)' },
    faults: ['log-range-ignored'],
  },
  async (ctx) => {
    const f = buildFixture(ctx);
    const { path, res } = await fullLog(f);
    const log = res.bytes;
    if (log.length < 16) ctx.skip(`the fixture log is ${log.length} bytes: too short to cut a range from`);
    const [start, end] = [3, 13];
    const part = expect2xx(await f.caller.get(path, { query: { nostream: 1, start, end } }), `GET ${path}?start=${start}&end=${end}`).bytes;
    // Whether `end` is inclusive is not stated: either reading is accepted.
    const exclusive = log.subarray(start, end);
    const inclusive = log.subarray(start, end + 1);
    ctx.expect(part.equals(exclusive) || part.equals(inclusive), `GET ${path}?start=${start}&end=${end}: expected bytes ${start}..${end} of the ${log.length}-byte log (${JSON.stringify(exclusive.toString('latin1'))}), got ${part.length} bytes ${JSON.stringify(part.subarray(0, 40).toString('latin1'))}`);
  },
);

export const logEntrySize = check(
  {
    id: 'build.build-results.log-entry-size',
    title: '_log?view=entry gives the size of the log',
    protocol: 'build',
    section,
    level: 'MUST',
    spec: { file, line: 126, quote: '`view`=entry (size and mtime)' },
    faults: ['log-entry-wrong-size'],
  },
  async (ctx) => {
    const f = buildFixture(ctx);
    const { path, res } = await fullLog(f);
    const entry = expect2xx(await f.caller.get(path, { query: { view: 'entry' } }), `GET ${path}?view=entry`);
    ctx.expect(xmlValues(entry).has(String(res.bytes.length)), `GET ${path}?view=entry does not give the log's size of ${res.bytes.length} bytes: ${brief(entry)}`);
  },
);

export const repositoryUploadAdminOnly = check(
  {
    id: 'build.build-results.repository-upload-admin-only',
    title: 'An ordinary user cannot upload a binary to a repository',
    protocol: 'build',
    section,
    level: 'MUST',
    spec: { file, line: 123, quote: 'POST .../_repository?match= and PUT .../_repository/<file>: upload binaries, admin only' },
    faults: ['repository-upload-open-to-all'],
    tags: ['destructive'],
  },
  async (ctx) => {
    const f = buildFixture(ctx);
    const path = `/build/${f.project}/${f.repo}/${f.arch}/_repository/conformance-upload-0-0.${f.arch}.rpm`;
    expectNot2xx(await f.caller.put(path, { body: 'not a real rpm\n', contentType: 'application/octet-stream' }), `PUT ${path} as an ordinary user`);
  },
);

export const buildinfoForRepository = check(
  {
    id: 'build.build-results.buildinfo-post-repository',
    title: 'POST _buildinfo with a spec file works for the package `_repository`',
    protocol: 'build',
    section,
    level: 'SHOULD',
    spec: { file, line: 127, quote: 'POST with a spec file body (package may be `_repository` for a not yet existing package)' },
    faults: ['buildinfo-repository-refused'],
  },
  async (ctx) => {
    const f = buildFixture(ctx);
    const path = `/build/${f.project}/${f.repo}/${f.arch}/_repository/_buildinfo`;
    const spec = 'Name: conformance-probe\nVersion: 1\nRelease: 0\nSummary: probe\nLicense: MIT\n%description\nprobe\n';
    expect2xx(await f.caller.post(path, { body: spec, contentType: 'text/plain' }), `POST ${path} with a spec file`);
  },
);

export const checks = [listingLevels, resultFilters, builddepinfoFilter, jobhistoryLimit, logIsText, logByteRange, logEntrySize, repositoryUploadAdminOnly, buildinfoForRepository];
