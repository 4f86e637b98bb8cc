// Section "Build results" of build-service-api.md. Result shapes are not shown, so these checks
// ask only what a body names (xmlValues) or how many elements it holds (childCount); they read
// the fixture project (fixtures.project / package / repository / arch) and change nothing there.
import type { BuildCaller, BuildResponse } from '../../src/clients/build/session.ts';
import { attr, rootOf } from '../../src/clients/xml.ts';
import { direct } from './request-helpers.ts';
import { check, type BuildCheckContext } from '../../src/core/check.ts';
import { BUILD_RESULT_CODES } from '../../src/clients/build/result-codes.ts';
import { authenticationControl, brief, childCount, contentType, entryNames, expect2xx, expectNot2xx, expectServed, fileNames, isAck, isEmptyDocument, resultCodes, withScratchProject, xmlValues } from './support.ts';

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

/**
 * The other packages of the fixture project (at least `min`, else the check is inconclusive), for
 * filters: ones a filtered answer must not name. Names that contain one another are left out, so
 * that naming one cannot look like naming the other; `among`, when given, keeps only those names.
 * A set-up step.
 */
async function otherPackages(ctx: BuildCheckContext, f: BuildFixture, min: number, among?: ReadonlySet<string>): Promise<string[]> {
  const listing = await ctx.setup(`list the packages of ${f.project}`, async () => entryNames(expectServed(await f.caller.get(`/source/${f.project}`), `GET /source/${f.project}`)));
  const others: string[] = [];
  // A few are enough for any filter (and keep this linear on a listing of any size).
  for (const n of listing) {
    if (others.length >= Math.max(min, 8)) break;
    if (n && (!among || among.has(n)) && ![f.pkg, ...others].some((x) => n.includes(x) || x.includes(n))) others.push(n);
  }
  if (others.length < min) ctx.inconclusive(`the fixture project ${f.project} has ${others.length + 1} package(s)${among ? ' with entries in the unfiltered answer' : ''}; a filter needs ${min + 1} to leave one out`);
  return others;
}

const otherPackage = async (ctx: BuildCheckContext, f: BuildFixture) => (await otherPackages(ctx, f, 1))[0];

/** Asserts that each listing (path, name, what) answers and names the fixture thing it must list. */
export async function expectListings(ctx: BuildCheckContext, f: BuildFixture, levels: [path: string, name: string, what: string][]): Promise<void> {
  for (const [path, name, what] of levels) {
    const res = expectServed(await f.caller.get(path), `GET ${path}`);
    ctx.expect(xmlValues(res).has(name), `GET ${path} does not name the fixture ${what} ${name}: ${brief(res)}`);
  }
}

/**
 * The architectures of the fixture repository, as GET /build/<project>/<repository> names them
 * (the entries of a directory listing, as the build service writes it; line 43 shows no structure).
 */
export async function fixtureArchs(f: BuildFixture): Promise<string[]> {
  const path = `/build/${f.project}/${f.repo}`;
  return entryNames(expectServed(await f.caller.get(path), `GET ${path}`)).filter(Boolean);
}

/** fixtureArchs as a set-up step. */
export const fixtureArchsSetup = (ctx: BuildCheckContext, f: BuildFixture) =>
  ctx.setup(`list the architectures of ${f.project}/${f.repo}`, () => fixtureArchs(f), { seeAlso: 'build.build-results.listing-levels' });

export const listingLevels = check(
  {
    id: 'build.build-results.listing-levels',
    title: 'GET /build/<project>, /<repository>, /<arch> list repositories, architectures and packages',
    protocol: 'build',
    section,
    level: 'MUST',
    spec: { file, line: 119, quote: 'GET /build/<project>/<repository> (architectures); GET /build/<project>/<repository>/<arch> (packages)' },
    touches: ['GET /build/{project}', 'GET /build/{project}/{repository}', 'GET /build/{project}/{repository}/{arch}'],
    faults: ['build-arch-listing-empty'],
  },
  async (ctx) => {
    const f = buildFixture(ctx);
    await expectListings(ctx, f, [
      [`/build/${f.project}`, f.repo, 'repository'],
      [`/build/${f.project}/${f.repo}`, f.arch, 'architecture'],
      [`/build/${f.project}/${f.repo}/${f.arch}`, f.pkg, 'package'],
    ]);
  },
);

export const resultFilters = check(
  {
    id: 'build.build-results.result-filters',
    title: '_result takes package, arch and repository filters, repeatable',
    protocol: 'build',
    section,
    // What the parameters filter is read from their names (line 124 lists them only).
    level: 'SHOULD',
    spec: { file, line: 124, quote: 'GET /build/<project>/_result: params `package`, `arch`, `repository` (repeatable)' },
    touches: ['GET /build/{project}/_result', 'GET /build/{project}/{repository}', 'GET /source/{project}'],
    faults: ['result-filters-ignored', 'result-repository-filter-ignored'],
    reliesOn: ['build.build-results.listing-levels'],
  },
  async (ctx) => {
    const f = buildFixture(ctx);
    const other = await otherPackage(ctx, f);
    const path = `/build/${f.project}/_result`;
    const one = expectServed(await f.caller.get(path, { query: { package: f.pkg } }), `GET ${path}?package=${f.pkg}`);
    ctx.expect(xmlValues(one).has(f.pkg), `GET ${path}?package=${f.pkg} does not name ${f.pkg}: ${brief(one)}`);
    ctx.expect(!xmlValues(one).has(other), `GET ${path}?package=${f.pkg} also reports package ${other}: ${brief(one)}`);
    const both = expectServed(await f.caller.get(path, { query: { package: [f.pkg, other] } }), `GET ${path}?package=${f.pkg}&package=${other}`);
    ctx.expect(xmlValues(both).has(f.pkg) && xmlValues(both).has(other), `GET ${path} with package repeated does not report both ${f.pkg} and ${other}: ${brief(both)}`);

    const archs = await fixtureArchsSetup(ctx, f);
    const otherArch = archs.find((a) => a && a !== f.arch);
    if (otherArch) {
      const byArch = expectServed(await f.caller.get(path, { query: { arch: f.arch, repository: f.repo } }), `GET ${path}?arch=${f.arch}&repository=${f.repo}`);
      ctx.expect(!xmlValues(byArch).has(otherArch), `GET ${path}?arch=${f.arch}&repository=${f.repo} also reports architecture ${otherArch}: ${brief(byArch)}`);
    } else ctx.note(`${f.project}/${f.repo} builds for ${f.arch} only: the arch filter was not tested`);
    // `repository`: the fixture project may have one repository only, so the filter is given one
    // the project does not have: no result of the package may be reported for it (or the read is
    // refused, as naming something that does not exist). The fixture's repository answered above.
    const none = 'conformance-no-such-repository';
    const byRepo = await f.caller.get(path, { query: { package: f.pkg, repository: none } });
    const ok = byRepo.status >= 200 && byRepo.status <= 299;
    ctx.expect(!ok || (!xmlValues(byRepo).has(f.pkg) && resultCodes(byRepo).length === 0), `GET ${path}?package=${f.pkg}&repository=${none} (a repository ${f.project} does not have) still reports ${f.pkg}: ${brief(byRepo)}`);
  },
);

/**
 * The packages a _builddepinfo answer is for, as the build service writes them: the `<package
 * name>` elements directly below the root (line 43 shows no structure). A package's dependencies
 * name other packages of the project (the fixture's may depend on one another), so what a body
 * merely names is not read as answered for.
 */
const answeredFor = (res: BuildResponse) => direct(rootOf(res.xml)?.node, 'package').map((k) => attr(k, 'name'));

export const builddepinfoFilter = check(
  {
    id: 'build.build-results.builddepinfo-package-filter',
    title: 'GET _builddepinfo answers for the packages named by `package`, all by default',
    protocol: 'build',
    section,
    level: 'MUST',
    spec: { file, line: 121, quote: 'GET of the same path returns dependency information (`package` filter; all packages by default)' },
    touches: ['GET /build/{project}/{repository}/{arch}/_builddepinfo', 'GET /source/{project}'],
    faults: ['builddepinfo-filter-ignored'],
  },
  async (ctx) => {
    const f = buildFixture(ctx);
    const other = await otherPackage(ctx, f);
    const path = `/build/${f.project}/${f.repo}/${f.arch}/_builddepinfo`;
    const all = expectServed(await f.caller.get(path), `GET ${path}`);
    ctx.expect(answeredFor(all).includes(f.pkg) && answeredFor(all).includes(other), `GET ${path} without a filter does not answer for both ${f.pkg} and ${other} (<package name> ${answeredFor(all).join(', ') || 'none'}): ${brief(all)}`);
    const one = expectServed(await f.caller.get(path, { query: { package: f.pkg } }), `GET ${path}?package=${f.pkg}`);
    ctx.expect(answeredFor(one).includes(f.pkg), `GET ${path}?package=${f.pkg} does not answer for ${f.pkg}: ${brief(one)}`);
    ctx.expect(!answeredFor(one).includes(other), `GET ${path}?package=${f.pkg} also answers for ${other}: ${brief(one)}`);
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
    touches: ['GET /build/{project}/{repository}/{arch}/_jobhistory'],
    faults: ['jobhistory-limit-ignored'],
  },
  async (ctx) => {
    const f = buildFixture(ctx);
    const path = `/build/${f.project}/${f.repo}/${f.arch}/_jobhistory`;
    const all = await ctx.setup(`read ${path} without a limit`, async () => childCount(expectServed(await f.caller.get(path), `GET ${path}`)));
    if (all < 2) ctx.inconclusive(`GET ${path} holds ${all} build(s): a limit of 1 cannot be told from no limit`);
    const limited = expectServed(await f.caller.get(path, { query: { limit: 1 } }), `GET ${path}?limit=1`);
    ctx.expect(childCount(limited) <= 1, `GET ${path}?limit=1 holds ${childCount(limited)} entries (${all} without the limit): ${brief(limited)}`);
  },
);

/** The fixture package's build log on the fixture repository and architecture. */
async function fullLog(f: BuildFixture) {
  const path = `/build/${f.project}/${f.repo}/${f.arch}/${f.pkg}/_log`;
  return { path, res: expectServed(await f.caller.get(path, { query: { nostream: 1 } }), `GET ${path}?nostream=1`) };
}

export const logIsText = check(
  {
    id: 'build.build-results.log-is-text',
    title: 'GET .../<package>/_log returns text',
    protocol: 'build',
    section,
    level: 'MUST',
    spec: { file, line: 126, quote: 'Returns text.' },
    touches: ['GET /build/{project}/{repository}/{arch}/{package}/_log'],
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
    // That `start` and `end` cut the log to those bytes is read from their names (line 126: "`start` (bytes), `end` (bytes)").
    level: 'SHOULD',
    spec: { file, line: 126, quote: '`start` (bytes), `end` (bytes)' },
    touches: ['GET /build/{project}/{repository}/{arch}/{package}/_log'],
    faults: ['log-range-ignored'],
    reliesOn: ['build.build-results.log-is-text'],
  },
  async (ctx) => {
    const f = buildFixture(ctx);
    const { path, res } = await ctx.setup('read the whole build log of the fixture package', () => fullLog(f), { seeAlso: 'build.build-results.log-is-text' });
    const log = res.bytes;
    if (log.length < 16) ctx.inconclusive(`the fixture log is ${log.length} bytes: too short to cut a range from`);
    const [start, end] = [3, 13];
    const part = expectServed(await f.caller.get(path, { query: { nostream: 1, start, end } }), `GET ${path}?start=${start}&end=${end}`).bytes;
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
    touches: ['GET /build/{project}/{repository}/{arch}/{package}/_log'],
    faults: ['log-entry-wrong-size'],
    reliesOn: ['build.build-results.log-is-text'],
  },
  async (ctx) => {
    const f = buildFixture(ctx);
    const { path, res } = await ctx.setup('read the whole build log of the fixture package', () => fullLog(f), { seeAlso: 'build.build-results.log-is-text' });
    const entry = expectServed(await f.caller.get(path, { query: { view: 'entry' } }), `GET ${path}?view=entry`);
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
    touches: ['DELETE /source/{project}', 'GET /build/{project}/{repository}/{arch}/_repository/{binary}', 'GET /source/{project}/_meta', 'POST /build/{project}/{repository}/{arch}/_repository', 'PUT /build/{project}/{repository}/{arch}/_repository/{binary}', 'PUT /source/{project}/_meta'],
    faults: ['repository-upload-open-to-all'],
    reliesOn: ['build.projects.meta-put-creates'],
    tags: ['destructive'],
  },
  async (ctx) => {
    const f = buildFixture(ctx);
    if (!ctx.build.target.users.admin) ctx.skip('no admin user configured: the admin\'s upload is what shows the route accepts one');
    const admin = ctx.build.as('admin');
    // A scratch project of the ordinary user, with a repository: the user maintains it, so that
    // "admin only" is the one reason left to refuse the user's upload (the document does not say
    // who else may write a repository). The admin's upload to the same routes is the positive
    // control: a server that refuses every upload (or serves no such route) shows nothing.
    const repository = `<repository name="${f.repo}"><path project="${f.project}" repository="${f.repo}"/><arch>${f.arch}</arch></repository>`;
    await withScratchProject(ctx, async ({ caller, project }) => {
      const dir = `/build/${project}/${f.repo}/${f.arch}/_repository`;
      const upload = (name: string) => ({ body: `not a real rpm: ${name}\n`, contentType: 'application/octet-stream' });
      const named = (who: string) => `conformance-upload-${who}-0-0.${f.arch}.rpm`;
      // The control of an upload let through (authenticationControl): the server tells who asks.
      const authenticates = await authenticationControl(ctx, caller, `/source/${project}/_meta`);
      const byUser = await caller.put(`${dir}/${named('user')}`, upload(named('user')));
      const postByUser = await caller.post(dir, { ...upload(named('user-post')), query: { match: named('user-post') } });
      await ctx.setup(`upload ${named('admin')} to ${dir} as the admin`, async () => {
        expectServed(await admin.put(`${dir}/${named('admin')}`, upload(named('admin'))), `PUT ${dir}/${named('admin')} as the admin`);
        const back = expectServed(await admin.get(`${dir}/${named('admin')}`), `GET ${dir}/${named('admin')} after the admin's upload`);
        ctx.expect(back.text.includes(named('admin')), `GET ${dir}/${named('admin')} does not give what the admin uploaded: ${brief(back)}`);
      });
      authenticates(byUser, `PUT ${dir}/${named('user')} as an ordinary user`);
      expectNot2xx(byUser, `PUT ${dir}/${named('user')} as an ordinary user (maintainer of ${project})`);
      // POST ?match=: the admin's POST is the control of this route (what it does with the body is not shown).
      const postByAdmin = await admin.post(dir, { ...upload(named('admin-post')), query: { match: named('admin-post') } });
      if (postByAdmin.status < 200 || postByAdmin.status > 299) {
        ctx.note(`POST ${dir}?match= was not accepted from the admin either (${brief(postByAdmin)}): only the PUT route was tested`);
        return;
      }
      authenticates(postByUser, `POST ${dir}?match=${named('user-post')} as an ordinary user`);
      expectNot2xx(postByUser, `POST ${dir}?match=${named('user-post')} as an ordinary user (maintainer of ${project})`);
    }, { metaExtra: repository });
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
    touches: ['POST /build/{project}/{repository}/{arch}/{package}/_buildinfo'],
    faults: ['buildinfo-repository-refused'],
    reliesOn: ['build.build-results.buildinfo-get'],
  },
  async (ctx) => {
    const f = buildFixture(ctx);
    const path = `/build/${f.project}/${f.repo}/${f.arch}/_repository/_buildinfo`;
    const spec = 'Name: conformance-probe\nVersion: 1\nRelease: 0\nSummary: probe\nLicense: MIT\n%description\nprobe\n';
    // The positive control: the same route answers the POST for the fixture package, an existing
    // one, with build info. Then a "does not exist" for `_repository` is the deviation itself.
    const own = `/build/${f.project}/${f.repo}/${f.arch}/${f.pkg}/_buildinfo`;
    await ctx.setup(`POST ${own} with a spec file (the route at work)`, async () => expectBuildinfo(ctx, f, expectServed(await f.caller.post(own, { body: spec, contentType: 'text/plain' }), `POST ${own} with a spec file`), `POST ${own}`), {
      seeAlso: 'build.build-results.buildinfo-get',
    });
    const res = expect2xx(await f.caller.post(path, { body: spec, contentType: 'text/plain' }), `POST ${path} with a spec file (the same route answered for ${f.pkg})`);
    expectBuildinfo(ctx, f, res, `POST ${path}`);
  },
);

/**
 * Build info: a structured document, not a bare status answer, naming the repository or the
 * architecture it was asked for (the build service writes `<buildinfo repository><arch>`).
 */
function expectBuildinfo(ctx: BuildCheckContext, f: BuildFixture, res: BuildResponse, what: string): void {
  const values = xmlValues(res);
  ctx.expect(res.xml !== undefined && !isAck(res) && (values.has(f.repo) || values.has(f.arch)), `${what}: expected build info (a structured document naming ${f.repo} or ${f.arch}), got ${brief(res)}`);
}

export const resultCodeDocumented = check(
  {
    id: 'build.build-results.result-code-documented',
    title: '_result and _status report the fixture package in one of the documented result codes',
    protocol: 'build',
    section,
    level: 'SHOULD',
    spec: { file, line: 47, quote: 'Build result codes (filter `code` in rebuild): `succeeded` (build succeeded), `failed`' },
    touches: ['GET /build/{project}/_result', 'GET /build/{project}/{repository}/{arch}/{package}/_status'],
    faults: ['result-code-undocumented'],
  },
  async (ctx) => {
    const f = buildFixture(ctx);
    const result = `/build/${f.project}/_result`;
    const query = { package: f.pkg, repository: f.repo, arch: f.arch };
    const res = expectServed(await f.caller.get(result, { query }), `GET ${result}?package=${f.pkg}&repository=${f.repo}&arch=${f.arch}`);
    ctx.expect(resultCodes(res).length > 0, `GET ${result}?package=${f.pkg}&repository=${f.repo}&arch=${f.arch} names none of the documented result codes: ${brief(res)}`);
    const status = `/build/${f.project}/${f.repo}/${f.arch}/${f.pkg}/_status`;
    const st = expectServed(await f.caller.get(status), `GET ${status}`);
    ctx.expect(resultCodes(st).length > 0, `GET ${status} names none of the documented result codes: ${brief(st)}`);
  },
);

export const resultDefaultView = check(
  {
    id: 'build.build-results.result-default-view-status',
    title: '_result without `view` answers as with view=status',
    protocol: 'build',
    section,
    level: 'MUST',
    spec: { file, line: 124, quote: '`view` (summary, status, binarylist; repeatable; default status)' },
    touches: ['GET /build/{project}/_result'],
    faults: ['result-default-view-summary'],
    reliesOn: ['build.build-results.result-code-documented'],
  },
  async (ctx) => {
    const f = buildFixture(ctx);
    const path = `/build/${f.project}/_result`;
    // The status view must report the package and its result code (line 47): only then is there
    // something for the plain read to be compared with.
    const statusView = async () => {
      const res = expectServed(await f.caller.get(path, { query: { package: f.pkg, view: 'status' } }), `GET ${path}?package=${f.pkg}&view=status`);
      ctx.expect(xmlValues(res).has(f.pkg) && resultCodes(res).length > 0, `GET ${path}?package=${f.pkg}&view=status reports not both ${f.pkg} and a documented result code: ${brief(res)}`);
      return xmlValues(res);
    };
    const before = await ctx.setup('read the status view', statusView, { seeAlso: 'build.build-results.result-code-documented' });
    const plain = expectServed(await f.caller.get(path, { query: { package: f.pkg } }), `GET ${path}?package=${f.pkg}`);
    const after = await ctx.setup('read the status view again', statusView, { seeAlso: 'build.build-results.result-code-documented' });
    // What the status view says of the package: its name and result codes, as long as they hold on
    // both sides of the plain read (a build may change state meanwhile on a live server; other
    // values, such as a state hash, are not compared at all).
    const said = [f.pkg, ...BUILD_RESULT_CODES].filter((v) => before.has(v) && after.has(v));
    const missing = said.filter((v) => !xmlValues(plain).has(v));
    ctx.expect(missing.length === 0, `GET ${path}?package=${f.pkg} without view lacks what view=status reports (${missing.join(', ')}): the default view is not status; got ${brief(plain)}`);
  },
);

export const resultViewsRepeatable = check(
  {
    id: 'build.build-results.result-views-repeatable',
    title: '_result with view=status and view=binarylist reports both views',
    protocol: 'build',
    section,
    level: 'MUST',
    spec: { file, line: 124, quote: '`view` (summary, status, binarylist; repeatable; default status)' },
    touches: ['GET /build/{project}/_result'],
    faults: ['result-view-first-only'],
  },
  async (ctx) => {
    const f = buildFixture(ctx);
    const path = `/build/${f.project}/_result`;
    const get = async (view: string[]) => xmlValues(expectServed(await f.caller.get(path, { query: { package: f.pkg, view } }), `GET ${path}?package=${f.pkg}&view=${view.join('&view=')}`));
    const alone = async () => ({ status: await get(['status']), binaries: await get(['binarylist']) });
    const before = await ctx.setup('read the status and binarylist views one at a time', alone);
    const both = await get(['status', 'binarylist']);
    const after = await ctx.setup('read the status and binarylist views one at a time again', alone);
    // Only what each view reports alone on both sides of the combined read: a build may change
    // state, or replace its binaries, meanwhile on a live server.
    const steady = (a: Set<string>, b: Set<string>) => [...a].filter((v) => b.has(v));
    const status = steady(before.status, after.status);
    const binaries = steady(before.binaries, after.binaries).filter((v) => !before.status.has(v));
    if (!binaries.length) ctx.inconclusive(`view=binarylist reports nothing view=status does not (no binaries of ${f.pkg}?): two views cannot be told apart`);
    const lost = [...status, ...binaries].filter((v) => !both.has(v));
    ctx.expect(lost.length === 0, `GET ${path}?package=${f.pkg}&view=status&view=binarylist leaves out what one of the views reports alone: ${lost.slice(0, 5).join(', ')}`);
  },
);

export const binaryFileinfo = check(
  {
    id: 'build.build-results.binary-fileinfo',
    title: 'A binary downloads from the binary list, and view=fileinfo answers with file info instead',
    protocol: 'build',
    section,
    level: 'MUST',
    spec: { file, line: 120, quote: 'GET .../<binaryname>: binary file; `?view=fileinfo` or `fileinfo_ext`: file info.' },
    touches: ['GET /build/{project}/{repository}/{arch}/{package}', 'GET /build/{project}/{repository}/{arch}/{package}/{binary}'],
    faults: ['fileinfo-ignored'],
  },
  async (ctx) => {
    const f = buildFixture(ctx);
    const dir = `/build/${f.project}/${f.repo}/${f.arch}/${f.pkg}`;
    const [name] = await ctx.setup(`list the binaries of ${dir}`, async () => fileNames(expectServed(await f.caller.get(dir), `GET ${dir}`)));
    if (!name) ctx.inconclusive(`${dir} lists no binaries: there is no binary to read file info of`);
    const path = `${dir}/${name}`;
    const binary = expectServed(await f.caller.get(path), `GET ${path}`);
    for (const view of ['fileinfo', 'fileinfo_ext']) {
      const info = expectServed(await f.caller.get(path, { query: { view } }), `GET ${path}?view=${view}`);
      ctx.expect(info.xml !== undefined && !info.bytes.equals(binary.bytes), `GET ${path}?view=${view}: expected file info (a structured document), got ${info.bytes.equals(binary.bytes) ? 'the binary itself' : brief(info)}`);
    }
  },
);

export const builddepinfoPost = check(
  {
    id: 'build.build-results.builddepinfo-post-packages',
    title: 'POST _builddepinfo answers for each package named by repeated `package`',
    protocol: 'build',
    section,
    level: 'MUST',
    spec: { file, line: 121, quote: 'POST /build/<project>/<repository>/<arch>/_builddepinfo: build dependencies of packages (`package` repeatable' },
    touches: ['GET /source/{project}', 'POST /build/{project}/{repository}/{arch}/_builddepinfo'],
    faults: ['builddepinfo-post-first-package-only'],
  },
  async (ctx) => {
    const f = buildFixture(ctx);
    const second = await otherPackage(ctx, f);
    const path = `/build/${f.project}/${f.repo}/${f.arch}/_builddepinfo`;
    const res = expectServed(await f.caller.post(path, { query: { package: [f.pkg, second] } }), `POST ${path}?package=${f.pkg}&package=${second}`);
    // Not asserted: that no other package is answered for or named. Dependency information names
    // the packages a package depends on, so another package of the project may rightly appear,
    // and naming one is not answering for it (answeredFor).
    const names = answeredFor(res);
    ctx.expect(names.includes(f.pkg) && names.includes(second), `POST ${path}?package=${f.pkg}&package=${second} does not answer for both packages (<package name> ${names.join(', ') || 'none'}): ${brief(res)}`);
  },
);

export const jobhistoryPackage = check(
  {
    id: 'build.build-results.jobhistory-package',
    title: 'GET _jobhistory?package= holds the builds of that package only',
    protocol: 'build',
    section,
    // What `package` filters is read from its name (line 122 lists the parameters only).
    level: 'SHOULD',
    spec: { file, line: 122, quote: 'GET .../<arch>/_jobhistory (`package`, `code`, `limit`)' },
    touches: ['GET /build/{project}/{repository}/{arch}/_jobhistory', 'GET /source/{project}'],
    faults: ['jobhistory-package-ignored'],
  },
  async (ctx) => {
    const f = buildFixture(ctx);
    const path = `/build/${f.project}/${f.repo}/${f.arch}/_jobhistory`;
    const all = await ctx.setup(`read ${path} unfiltered`, async () => xmlValues(expectServed(await f.caller.get(path), `GET ${path}`)));
    const other = (await otherPackages(ctx, f, 1, all)).find((k) => all.has(k));
    if (!all.has(f.pkg) || !other) ctx.inconclusive(`GET ${path} needs builds of ${f.pkg} and of another package for the filter to tell them apart`);
    const one = expectServed(await f.caller.get(path, { query: { package: f.pkg } }), `GET ${path}?package=${f.pkg}`);
    ctx.expect(xmlValues(one).has(f.pkg), `GET ${path}?package=${f.pkg} holds no build of ${f.pkg}: ${brief(one)}`);
    ctx.expect(!xmlValues(one).has(other!), `GET ${path}?package=${f.pkg} also holds builds of ${other}: ${brief(one)}`);
  },
);

export const jobhistoryCode = check(
  {
    id: 'build.build-results.jobhistory-code',
    title: 'GET _jobhistory?code= holds the builds that ended in that code only',
    protocol: 'build',
    section,
    // What `code` filters is read from its name (line 122 lists the parameters only).
    level: 'SHOULD',
    spec: { file, line: 122, quote: 'GET .../<arch>/_jobhistory (`package`, `code`, `limit`)' },
    touches: ['GET /build/{project}/{repository}/{arch}/_jobhistory'],
    faults: ['jobhistory-code-ignored'],
  },
  async (ctx) => {
    const f = buildFixture(ctx);
    const path = `/build/${f.project}/${f.repo}/${f.arch}/_jobhistory`;
    const codes = await ctx.setup(`read ${path} unfiltered`, async () => new Set(resultCodes(expectServed(await f.caller.get(path), `GET ${path}`))));
    if (codes.size < 2) ctx.inconclusive(`GET ${path} names ${codes.size} result code(s) (${[...codes].join(', ')}): a filter needs two to tell apart`);
    const code = codes.has('failed') ? 'failed' : [...codes][0];
    const res = expectServed(await f.caller.get(path, { query: { code } }), `GET ${path}?code=${code}`);
    const got = resultCodes(res);
    ctx.expect(got.includes(code), `GET ${path}?code=${code} holds no ${code} build: ${brief(res)}`);
    const others = got.filter((c) => c !== code);
    ctx.expect(others.length === 0, `GET ${path}?code=${code} also holds builds ending in ${others.join(', ')}: ${brief(res)}`);
  },
);

/** Codes in which no job runs: the build is over, or will not happen. */
const IDLE_CODES = new Set(['succeeded', 'failed', 'disabled', 'excluded', 'broken', 'unresolvable']);

export const jobstatusEmpty = check(
  {
    id: 'build.build-results.jobstatus-empty-when-idle',
    title: '_jobstatus is empty for a package whose build is over',
    protocol: 'build',
    section,
    level: 'MUST',
    spec: { file, line: 125, quote: '_jobstatus (empty when no job runs)' },
    touches: ['GET /build/{project}/{repository}', 'GET /build/{project}/{repository}/{arch}/{package}/_jobstatus', 'GET /build/{project}/{repository}/{arch}/{package}/_status'],
    faults: ['jobstatus-always-filled', 'jobstatus-idle-code-attribute'],
    reliesOn: ['build.build-results.listing-levels', 'build.build-results.result-code-documented'],
  },
  async (ctx) => {
    const f = buildFixture(ctx);
    for (const arch of await fixtureArchsSetup(ctx, f)) {
      const where = `/build/${f.project}/${f.repo}/${arch}/${f.pkg}`;
      const code = () =>
        ctx.setup(`read the result code of ${where}`, async () => {
          const codes = resultCodes(expectServed(await f.caller.get(`${where}/_status`), `GET ${where}/_status`));
          return codes.length === 1 && IDLE_CODES.has(codes[0]) ? codes[0] : undefined;
        }, { seeAlso: 'build.build-results.result-code-documented' });
      const before = await code();
      if (!before) continue;
      const job = expectServed(await f.caller.get(`${where}/_jobstatus`), `GET ${where}/_jobstatus`);
      // A job may have been scheduled meanwhile on a live server: judge only if the code held.
      if ((await code()) !== before) continue;
      // Empty: no element, attribute or text in it (an empty body, or an empty root element).
      ctx.expect(isEmptyDocument(job), `GET ${where}/_jobstatus of a package in code ${before} (no job runs) is not empty: ${brief(job)}`);
      return;
    }
    ctx.inconclusive(`no architecture of ${f.project}/${f.repo} has ${f.pkg} steadily in a code where no job runs (${[...IDLE_CODES].join(', ')})`);
  },
);

export const packageReads = check(
  {
    id: 'build.build-results.package-reads',
    title: '_history, _reason and _status of a package answer with structured documents',
    protocol: 'build',
    section,
    level: 'SHOULD',
    spec: { file, line: 125, quote: 'GET .../<package>/_history, _reason, _jobstatus (empty when no job runs), _status.' },
    touches: ['GET /build/{project}/{repository}/{arch}/{package}/_history', 'GET /build/{project}/{repository}/{arch}/{package}/_reason', 'GET /build/{project}/{repository}/{arch}/{package}/_status'],
    faults: ['build-reason-not-xml'],
  },
  async (ctx) => {
    const f = buildFixture(ctx);
    const where = `/build/${f.project}/${f.repo}/${f.arch}/${f.pkg}`;
    // _status is read for what it must say (the package's result code, line 47); _history and
    // _reason, whose content is not shown, for a structured document that is not a bare status
    // answer (what the build service acknowledges a command or reports an error with).
    const st = expectServed(await f.caller.get(`${where}/_status`), `GET ${where}/_status`);
    ctx.expect(resultCodes(st).length > 0, `GET ${where}/_status names none of the documented result codes: ${brief(st)}`);
    for (const name of ['_history', '_reason']) {
      const res = expectServed(await f.caller.get(`${where}/${name}`), `GET ${where}/${name}`);
      ctx.expect(res.xml !== undefined && !isAck(res), `GET ${where}/${name}: expected a structured document about the build, got ${brief(res)}`);
    }
  },
);

export const buildinfoAndConfigReads = check(
  {
    id: 'build.build-results.buildinfo-get',
    title: 'GET _buildinfo of a package with committed sources answers with a structured document; _buildconfig answers',
    protocol: 'build',
    section,
    level: 'SHOULD',
    spec: { file, line: 127, quote: 'GET /build/<project>/<repository>/<arch>/<package>/_buildinfo (committed sources)' },
    touches: ['GET /build/{project}/{repository}/_buildconfig', 'GET /build/{project}/{repository}/{arch}/{package}/_buildinfo'],
    faults: ['buildinfo-get-empty'],
  },
  async (ctx) => {
    const f = buildFixture(ctx);
    const info = `/build/${f.project}/${f.repo}/${f.arch}/${f.pkg}/_buildinfo`;
    const res = expectServed(await f.caller.get(info), `GET ${info}`);
    expectBuildinfo(ctx, f, res, `GET ${info}`);
    ctx.expect(xmlValues(res).has(f.pkg), `GET ${info}: the build info does not name the package ${f.pkg} it is for: ${brief(res)}`);
    // "build configuration": its form is not given.
    expectServed(await f.caller.get(`/build/${f.project}/${f.repo}/_buildconfig`), `GET /build/${f.project}/${f.repo}/_buildconfig`);
  },
);

export const checks = [
  listingLevels,
  binaryFileinfo,
  builddepinfoFilter,
  builddepinfoPost,
  jobhistoryPackage,
  jobhistoryCode,
  jobhistoryLimit,
  repositoryUploadAdminOnly,
  resultFilters,
  resultDefaultView,
  resultViewsRepeatable,
  resultCodeDocumented,
  jobstatusEmpty,
  packageReads,
  logIsText,
  logByteRange,
  logEntrySize,
  buildinfoForRepository,
  buildinfoAndConfigReads,
];
