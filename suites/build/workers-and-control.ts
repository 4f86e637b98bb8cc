// Section "Workers and control" of build-service-api.md. The commands that delete binaries
// (wipe, unpublish) act on fixtures.built, an already-built package the target names for that
// purpose, while it still has binaries; otherwise on a scratch project of the ordinary user with
// one repository that builds against the fixture's, once its packages are built (the check waits
// ctx.timeouts.backgroundMs in all, see backgroundLeft, and is inconclusive when they are not).
import { check, type BuildCheckContext } from '../../src/core/check.ts';
import type { BuildCaller, BuildResponse } from '../../src/clients/build/session.ts';
import { buildFixture, type BuildFixture } from './build-results.ts';
import { backgroundLeft, brief, childCount, entryNames, expectNot2xx, expectServed, isAck, isEmptyDocument, rereadUntil, resultCodes, routeServed, served, withScratchProject, xmlValues, type Scratch } from './support.ts';

const section = 'Workers and control';
const file = 'build-service-api.md';

export const workerStatus = check(
  {
    id: 'build.workers-and-control.worker-status',
    title: 'GET /worker/_status answers with the jobs and backend status',
    protocol: 'build',
    section,
    level: 'SHOULD',
    spec: { file, line: 130, quote: 'GET /worker/_status: running and waiting jobs, backend status, statistics.' },
    touches: ['GET /worker/_status'],
    faults: ['worker-status-empty'],
  },
  async (ctx) => {
    const res = expectServed(await ctx.build.as('user').get('/worker/_status'), 'GET /worker/_status');
    // Jobs, backend status and statistics are something: a document that holds elements, not a
    // bare status answer (what the build service acknowledges a command or reports an error with).
    ctx.expect(res.xml !== undefined && !isAck(res) && childCount(res) > 0, `GET /worker/_status: expected a structured document holding the jobs, backend status and statistics, got ${brief(res)}`);
  },
);

export const checkconstraintsNeedsParams = check(
  {
    id: 'build.workers-and-control.checkconstraints-needs-params',
    title: 'POST /worker?cmd=checkconstraints is refused without any one of project, package, arch and repository',
    protocol: 'build',
    section,
    // The refusal is implied by "needs" on the parameters only (rubric 1: as "req", and as group
    // add_user's "need `userid`", build.groups.add-remove-user): SHOULD.
    level: 'SHOULD',
    spec: { file, line: 130, quote: 'POST /worker?cmd=checkconstraints: needs `project`, `package`, `arch`, `repository`' },
    touches: ['POST /worker'],
    faults: ['checkconstraints-unchecked', 'checkconstraints-checks-project-only'],
  },
  async (ctx) => {
    const f = buildFixture(ctx);
    const all: Record<string, string> = { project: f.project, package: f.pkg, arch: f.arch, repository: f.repo };
    // The document names no body. The build service reads one as the constraints to check (its
    // backend refuses an empty body as "not xml", bs_repserver checkconstraints): every request
    // here sends the same empty constraints document, so that only the parameters differ.
    const post = (query: Record<string, string>) => f.caller.post('/worker', { query: { cmd: 'checkconstraints', ...query }, body: '<constraints/>', contentType: 'application/xml' });
    // The positive control (a set-up: refused, the refusals below could be for another reason).
    await routeServed(ctx, 'POST /worker?cmd=checkconstraints with project, package, arch and repository', () => post(all));
    // It needs each of the four: each is left out in turn (the others given), then all of them.
    for (const name of Object.keys(all)) {
      const rest = Object.fromEntries(Object.entries(all).filter(([k]) => k !== name));
      expectNot2xx(await post(rest), `POST /worker?cmd=checkconstraints without \`${name}\` (the other three given)`);
    }
    expectNot2xx(await post({}), 'POST /worker?cmd=checkconstraints without its parameters');
  },
);

export const abortbuild = check(
  {
    id: 'build.workers-and-control.abortbuild',
    title: 'cmd=abortbuild kills a running build (no job runs after it) and marks it failed',
    protocol: 'build',
    section,
    level: 'MUST',
    spec: { file, line: 131, quote: '`abortbuild` (kills running builds, marks failed)' },
    touches: ['DELETE /source/{project}', 'GET /build/{project}/{repository}/{arch}/{package}/_jobstatus', 'GET /build/{project}/{repository}/{arch}/{package}/_status', 'POST /build/{project}', 'PUT /source/{project}/_meta', 'PUT /source/{project}/{package}/_meta', 'PUT /source/{project}/{package}/{filename}'],
    faults: ['abortbuild-leaves-job', 'abortbuild-not-failed', 'jobstatus-idle-code-attribute'],
    reliesOn: ['build.projects.meta-put-creates', 'build.workers-and-control.rebuild-restartbuild-accepted'],
    tags: ['destructive'],
  },
  async (ctx) => {
    // A build of the check's own: a scratch package with a spec file, rebuilt until it is seen
    // running (its _jobstatus holds a job), so that every run finds a build to abort; a fixture's
    // running build would be spent by the first run.
    await withBuildingScratch(ctx, async ({ caller, project, addPackage }, f) => {
      const pkg = await addPackage('aborted');
      const spec = `Name: aborted\nVersion: 1.0\nRelease: 0\nSummary: conformance probe\nLicense: MIT\nBuildArch: noarch\n%description\nprobe\n%files\n`;
      await ctx.setup(`commit the spec file of ${project}/${pkg}`, async () => expectServed(await caller.put(`/source/${project}/${pkg}/${pkg}.spec`, { body: spec, contentType: 'text/plain' }), `PUT /source/${project}/${pkg}/${pkg}.spec`));
      const where = `${project}/${f.repo}/${f.arch}/${pkg}`;
      const runs = (res: BuildResponse) => res.status === 200 && childCount(res) > 0;
      const jobstatus = () => caller.get(`/build/${where}/_jobstatus`);
      // Caught running as soon as it builds; else rebuilt (once the first build is over) and watched again.
      let seen = await rereadUntil(ctx, jobstatus, runs, backgroundLeft(ctx) / 3);
      if (!runs(seen)) {
        await ctx.setup(`rebuild ${project}/${pkg}`, async () => expectServed(await caller.post(`/build/${project}`, { query: { cmd: 'rebuild', package: pkg } }), `POST /build/${project}?cmd=rebuild&package=${pkg}`), {
          seeAlso: 'build.workers-and-control.rebuild-restartbuild-accepted',
        });
        seen = await rereadUntil(ctx, jobstatus, runs, backgroundLeft(ctx) / 2);
      }
      served(seen, `GET /build/${where}/_jobstatus`);
      if (!runs(seen)) ctx.inconclusive(`the build of ${where} was not seen running (its _jobstatus held no job) within ${ctx.timeouts.backgroundMs} ms, rebuilt or not: there is no running build to abort: ${brief(seen)}`);
      expectServed(await caller.post(`/build/${project}`, { query: { cmd: 'abortbuild', package: pkg, repository: f.repo, arch: f.arch } }), `POST /build/${project}?cmd=abortbuild&package=${pkg}&repository=${f.repo}&arch=${f.arch}`);
      // No job runs: _jobstatus is empty (line 125), as build.build-results.jobstatus-empty-when-idle
      // reads it (no child, attribute or text: `<jobstatus code="building"/>` is not empty).
      const job = await rereadUntil(ctx, jobstatus, isEmptyDocument);
      ctx.expect(isEmptyDocument(job), `GET /build/${where}/_jobstatus after abortbuild: not empty, the job still runs: ${brief(job)}`);
      const readStatus = async () => expectServed(await caller.get(`/build/${where}/_status`), `GET /build/${where}/_status`);
      const status = await rereadUntil(ctx, readStatus, (res) => resultCodes(res).includes('failed'));
      ctx.expect(resultCodes(status).includes('failed'), `GET /build/${where}/_status after abortbuild: expected the build marked failed, got ${brief(status)}`);
    });
  },
);

/** A scratch project with one repository that builds against the fixture repository, on the fixture architecture. */
function withBuildingScratch(ctx: BuildCheckContext, body: (s: Scratch, f: BuildFixture) => Promise<void>): Promise<void> {
  const f = buildFixture(ctx);
  const repository = `<repository name="${f.repo}"><path project="${f.project}" repository="${f.repo}"/><arch>${f.arch}</arch></repository>`;
  return withScratchProject(ctx, (s) => body(s, f), { metaExtra: repository });
}

interface Built {
  caller: BuildCaller;
  project: string;
  repo: string;
  arch: string;
  packages: string[];
}

/**
 * A building scratch project (withBuildingScratch) with packages with a spec file each, once
 * their binaries show up in the build area. The build takes what time the server needs: the check
 * waits up to what is left of ctx.timeouts.backgroundMs, and is inconclusive when a package is not
 * built by then.
 */
async function withBuiltScratch(ctx: BuildCheckContext, names: string[], body: (b: Built) => Promise<void>): Promise<void> {
  await withBuildingScratch(ctx, async ({ caller, project, addPackage }, f) => {
    for (const name of names) {
      await addPackage(name);
      const spec = `Name: ${name}\nVersion: 1.0\nRelease: 0\nSummary: conformance probe\nLicense: MIT\nBuildArch: noarch\n%description\nprobe\n%files\n`;
      await ctx.setup(`commit the spec file of ${project}/${name}`, async () => expectServed(await caller.put(`/source/${project}/${name}/${name}.spec`, { body: spec, contentType: 'text/plain' }), `PUT /source/${project}/${name}/${name}.spec`));
    }
    for (const name of names) {
      const path = `/build/${project}/${f.repo}/${f.arch}/${name}`;
      const progress = buildProgress(caller, project, f.repo, f.arch, name);
      const started = Date.now();
      const bins = await rereadUntil(ctx, async () => {
        const res = await caller.get(path);
        if (res.status !== 200 || childCount(res) === 0) await progress.read();
        return res;
      }, (res) => (res.status === 200 && childCount(res) > 0) || progress.ended() !== undefined);
      if (bins.status !== 200 || childCount(bins) === 0) {
        const ended = progress.ended();
        ctx.inconclusive(ended
          ? `the scratch package ${project}/${name} ended its build in code ${ended} (${progress.seen()}), without binaries in the build area: ${brief(bins)}`
          : `the scratch package ${project}/${name} has no binaries in the build area within ${ctx.timeouts.backgroundMs} ms (not built yet; raise timeouts.backgroundMs for a slower server; result codes seen: ${progress.seen()}): ${brief(bins)}`);
      }
      ctx.note(`${project}/${name} built in ${Date.now() - started} ms (result codes seen: ${progress.seen()})`);
    }
    await body({ caller, project, repo: f.repo, arch: f.arch, packages: names });
  });
}

/** The documented codes (line 47) in which a build has ended without binaries to wait for. */
const ENDED_WITHOUT_BINARIES = new Set(['failed', 'broken', 'unresolvable', 'excluded', 'disabled']);

/**
 * The progress of one package's build while a check waits for it: each read of its `_status`
 * records the documented result code it names (line 47), so that a wait that runs out says how
 * far the build got, and a build seen running that ended without binaries (failed, broken, …)
 * ends the wait at once instead of at the end of timeouts.backgroundMs.
 */
function buildProgress(caller: BuildCaller, project: string, repo: string, arch: string, pkg: string) {
  const codes: string[] = [];
  return {
    async read(): Promise<void> {
      const res = await caller.get(`/build/${project}/${repo}/${arch}/${pkg}/_status`);
      const now = res.status === 200 ? resultCodes(res) : [];
      if (now.length === 1 && codes[codes.length - 1] !== now[0]) codes.push(now[0]);
    },
    /**
     * The code the build ended in without binaries: the last code read, where it is one of those
     * and the build was seen `scheduled` or `building` before (a code read before that may be the
     * one from before the spec file was committed, which a server may show for a while).
     */
    ended: (): string | undefined => {
      const last = codes[codes.length - 1];
      const ran = codes.slice(0, -1).some((c) => c === 'scheduled' || c === 'building');
      return ran && ENDED_WITHOUT_BINARIES.has(last) ? last : undefined;
    },
    seen: (): string => codes.join(' → ') || 'none',
  };
}

/** What an already-built fixture must still hold for a check to use it instead of a fresh build. */
type Needs = { kind: 'binaries'; of: 'package' | 'every-package' } | { kind: 'published' };

/**
 * fixtures.built as a Built, when the target names it and it still has what `needs` asks (one
 * read each, no waiting: it is built already): binaries of its package in the build area; two or
 * more of its project's packages with binaries there (`every-package`, those being `packages`); or
 * binaries in the publish area. Its project belongs to someone else, so it is written as the admin
 * (it is used only where one is configured). Undefined otherwise: the check builds its own.
 */
async function builtFixture(ctx: BuildCheckContext, needs: Needs): Promise<Built | undefined> {
  const f = ctx.build.fixtures.built;
  if (!f || !ctx.build.target.users.admin) return undefined;
  const caller = ctx.build.as('admin');
  const area = `/build/${f.project}/${f.repository}/${f.arch}`;
  const hasBinaries = async (name: string) => {
    const res = await caller.get(`${area}/${name}`);
    return res.status === 200 && childCount(res) > 0;
  };
  let packages = [f.package];
  if (needs.kind === 'published') {
    const res = await caller.get(`/published/${f.project}/${f.repository}/${f.arch}`);
    if (res.status !== 200 || childCount(res) === 0) return undefined;
  } else if (needs.of === 'package') {
    if (!(await hasBinaries(f.package))) return undefined;
  } else {
    const listing = await caller.get(area);
    packages = [];
    for (const name of listing.status === 200 ? entryNames(listing) : []) if (name && (await hasBinaries(name))) packages.push(name);
    if (packages.length < 2) return undefined;
  }
  ctx.note(`acts on the already-built fixtures.built ${f.project}/${f.package} (${f.repository}/${f.arch})`);
  return { caller, project: f.project, repo: f.repository, arch: f.arch, packages };
}

/** fixtures.built where it serves (builtFixture), else a scratch project built for the check (withBuiltScratch). */
async function withBuilt(ctx: BuildCheckContext, needs: Needs, names: string[], body: (b: Built) => Promise<void>): Promise<void> {
  const fixture = await ctx.setup('look for binaries of fixtures.built', () => builtFixture(ctx, needs));
  if (fixture) return body(fixture);
  await withBuiltScratch(ctx, names, body);
}

export const wipe = check(
  {
    id: 'build.workers-and-control.wipe',
    title: 'cmd=wipe deletes the binaries of a package from the build area',
    protocol: 'build',
    section,
    level: 'MUST',
    spec: { file, line: 131, quote: '`wipe` (delete binaries from build area)' },
    touches: ['GET /build/{project}/{repository}/{arch}/{package}', 'POST /build/{project}'],
    faults: ['wipe-noop'],
    reliesOn: ['build.projects.meta-put-creates'],
    tags: ['destructive'],
    // fixtures.built, where the target names one, is shared by these commands: one at a time.
    writes: ['build:fixtures.built'],
  },
  async (ctx) => {
    await withBuilt(ctx, { kind: 'binaries', of: 'package' }, ['wiped'], async ({ caller, project, repo, arch, packages: [pkg] }) => {
      expectServed(await caller.post(`/build/${project}`, { query: { cmd: 'wipe', package: pkg } }), `POST /build/${project}?cmd=wipe&package=${pkg}`);
      const path = `/build/${project}/${repo}/${arch}/${pkg}`;
      const after = await rereadUntil(ctx, () => caller.get(path), (res) => childCount(res) === 0);
      ctx.expect(childCount(after) === 0, `GET ${path} after cmd=wipe still lists binaries: ${brief(after)}`);
    });
  },
);

export const unpublish = check(
  {
    id: 'build.workers-and-control.unpublish',
    title: 'cmd=unpublish deletes the binaries from the publish area',
    protocol: 'build',
    section,
    level: 'MUST',
    spec: { file, line: 131, quote: '`unpublish` (delete binaries from publish area)' },
    touches: ['GET /published/{project}/{repository}/{arch}', 'POST /build/{project}'],
    faults: ['unpublish-noop'],
    reliesOn: ['build.projects.meta-put-creates'],
    tags: ['destructive'],
    // fixtures.built, where the target names one, is shared by these commands: one at a time.
    writes: ['build:fixtures.built'],
  },
  async (ctx) => {
    await withBuilt(ctx, { kind: 'published' }, ['unpublished'], async ({ caller, project, repo, arch }) => {
      const path = `/published/${project}/${repo}/${arch}`;
      const before = await rereadUntil(ctx, () => caller.get(path), (res) => res.status === 200 && childCount(res) > 0);
      if (before.status !== 200 || childCount(before) === 0) ctx.inconclusive(`nothing of ${project} is published within ${ctx.timeouts.backgroundMs} ms (built, not yet published): ${brief(before)}`);
      expectServed(await caller.post(`/build/${project}`, { query: { cmd: 'unpublish' } }), `POST /build/${project}?cmd=unpublish`);
      const after = await rereadUntil(ctx, () => caller.get(path), (res) => res.status !== 200 || childCount(res) === 0);
      ctx.expect(after.status !== 200 || childCount(after) === 0, `GET ${path} after cmd=unpublish still lists published binaries: ${brief(after)}`);
    });
  },
);

export const noParametersMeansAll = check(
  {
    id: 'build.workers-and-control.no-parameters-all-packages',
    title: 'A build control command without parameters acts on every package',
    protocol: 'build',
    section,
    level: 'MUST',
    spec: { file, line: 131, quote: 'No parameters means all packages.' },
    touches: ['GET /build/{project}/{repository}/{arch}', 'GET /build/{project}/{repository}/{arch}/{package}', 'POST /build/{project}'],
    faults: ['control-all-means-first', 'wipe-noop'],
    reliesOn: ['build.projects.meta-put-creates'],
    tags: ['destructive'],
    // fixtures.built, where the target names one, is shared by these commands: one at a time.
    writes: ['build:fixtures.built'],
  },
  async (ctx) => {
    await withBuilt(ctx, { kind: 'binaries', of: 'every-package' }, ['first', 'second'], async ({ caller, project, repo, arch, packages }) => {
      expectServed(await caller.post(`/build/${project}`, { query: { cmd: 'wipe' } }), `POST /build/${project}?cmd=wipe without parameters`);
      for (const name of packages) {
        const after = await rereadUntil(ctx, () => caller.get(`/build/${project}/${repo}/${arch}/${name}`), (res) => childCount(res) === 0);
        ctx.expect(childCount(after) === 0, `POST /build/${project}?cmd=wipe without parameters left the binaries of ${name}: ${brief(after)}`);
      }
    });
  },
);

export const workerCapabilities = check(
  {
    id: 'build.workers-and-control.worker-capabilities',
    title: 'GET /worker/<hostarch>:<workerid> answers with the capabilities of the worker',
    protocol: 'build',
    section,
    level: 'SHOULD',
    spec: { file, line: 130, quote: 'GET /worker/<hostarch>:<workerid>: capabilities.' },
    touches: ['GET /worker/{worker}'],
    faults: ['worker-capabilities-wrong-worker'],
  },
  async (ctx) => {
    const worker = ctx.build.fixture(ctx.build.fixtures.worker, 'worker');
    const res = expectServed(await ctx.build.as('user').get(`/worker/${worker}`), `GET /worker/${worker}`);
    // The capabilities of that worker: a document that names its worker id (the build service
    // writes `<worker hostarch workerid>`); the worker id may itself hold a colon.
    const workerid = worker.slice(worker.indexOf(':') + 1);
    ctx.expect(res.xml !== undefined && !isAck(res), `GET /worker/${worker}: expected a structured document, got ${brief(res)}`);
    ctx.expect(xmlValues(res).has(workerid) || xmlValues(res).has(worker), `GET /worker/${worker}: the capabilities do not name the worker ${workerid}: ${brief(res)}`);
  },
);

export const commandsAccepted = check(
  {
    id: 'build.workers-and-control.rebuild-restartbuild-accepted',
    title: 'cmd=rebuild and cmd=restartbuild are accepted for a project the user writes',
    protocol: 'build',
    section,
    level: 'MUST',
    spec: { file, line: 131, quote: 'POST /build/<project>?cmd=<command>: `rebuild`, `abortbuild` (kills running builds, marks failed), `restartbuild`' },
    touches: ['DELETE /source/{project}', 'GET /source/{project}/{package}/_meta', 'POST /build/{project}', 'PUT /source/{project}/_meta', 'PUT /source/{project}/{package}/_meta'],
    faults: ['restartbuild-refused'],
    reliesOn: ['build.projects.meta-put-creates', 'build.packages.meta-get'],
    tags: ['destructive'],
  },
  async (ctx) => {
    await withBuildingScratch(ctx, async ({ caller, project, addPackage }) => {
      const pkg = await addPackage('restarted');
      // The package is there to be rebuilt (a set-up that any 2xx would not show).
      await ctx.setup(`read back the package ${project}/${pkg}`, async () => {
        const meta = expectServed(await caller.get(`/source/${project}/${pkg}/_meta`), `GET /source/${project}/${pkg}/_meta`);
        ctx.expect(xmlValues(meta).has(pkg), `GET /source/${project}/${pkg}/_meta does not name the package ${pkg} just created: ${brief(meta)}`);
      }, { seeAlso: 'build.packages.meta-get' });
      for (const cmd of ['rebuild', 'restartbuild']) {
        expectServed(await caller.post(`/build/${project}`, { query: { cmd, package: pkg } }), `POST /build/${project}?cmd=${cmd}&package=${pkg}`);
      }
    });
  },
);

export const codeFilter = check(
  {
    id: 'build.workers-and-control.code-filter',
    title: 'A build control command with `code` acts only on packages in one of the given codes',
    protocol: 'build',
    section,
    level: 'MUST',
    // Line 131 gives `code` to every command, repeatable; that it is a filter by result code is
    // stated on line 47 ("filter `code` in rebuild"): MUST.
    spec: { file, line: 131, quote: 'Params for all: `package`, `arch`, `repository`, `code` (repeatable), `lastbuild`.' },
    touches: ['DELETE /source/{project}', 'GET /build/{project}/{repository}/{arch}/{package}', 'GET /build/{project}/{repository}/{arch}/{package}/_status', 'POST /build/{project}', 'PUT /source/{project}/_meta', 'PUT /source/{project}/{package}/_meta', 'PUT /source/{project}/{package}/{filename}'],
    faults: ['control-code-ignored', 'control-code-first-only', 'control-code-ignored-late'],
    reliesOn: ['build.projects.meta-put-creates', 'build.build-results.result-code-documented'],
    tags: ['destructive'],
  },
  async (ctx) => {
    // A package of the check's own, wiped first with a code it is not in (it must keep its
    // binaries), then with that code repeated after one it is not in (it must lose them: the
    // repeated code is taken). A server may carry a command out in the background, so the first
    // (a negative) is watched until the check's background window ends (ctx.timeouts.backgroundMs
    // from the start of its scratch project; inconclusive when less than a quarter of it is left
    // after the build), and the second is given its own wait after that window, out of the time
    // that timeoutsFor leaves the check after it.
    await withBuiltScratch(ctx, ['coded'], async ({ caller, project, repo, arch }) => {
      const where = `/build/${project}/${repo}/${arch}/coded`;
      const codes = await ctx.setup(`read the result code of ${where}`, async () => resultCodes(expectServed(await caller.get(`${where}/_status`), `GET ${where}/_status`)), { seeAlso: 'build.build-results.result-code-documented' });
      if (codes.length !== 1) ctx.inconclusive(`GET ${where}/_status names ${codes.length} documented result codes (${codes.join(', ')}), not one: the package's code is not known`);
      const [code] = codes;
      const other = code === 'failed' ? 'succeeded' : 'failed';
      const wipe = (code: string[]) => caller.post(`/build/${project}`, { query: { cmd: 'wipe', package: 'coded', code } });
      const window = backgroundLeft(ctx);
      if (window < ctx.timeouts.backgroundMs / 4) ctx.inconclusive(`only ${window} ms of the ${ctx.timeouts.backgroundMs} ms background window are left after the build: too little to watch that a wipe with another code spares the package (raise timeouts.backgroundMs)`);
      expectServed(await wipe([other]), `POST /build/${project}?cmd=wipe&package=coded&code=${other}`);
      const kept = await rereadUntil(ctx, () => caller.get(where), (res) => childCount(res) === 0);
      const stillCode = async () => {
        // The package may have left its code meanwhile (rebuilt on a live server): then the command rightly acted otherwise.
        const now = resultCodes(expectServed(await caller.get(`${where}/_status`), `GET ${where}/_status`));
        if (now.length !== 1 || now[0] !== code) ctx.inconclusive(`${where} left code ${code} (now ${now.join(', ') || 'none'}) before the wipe could be judged`);
      };
      if (childCount(kept) === 0) await stillCode();
      ctx.expect(childCount(kept) > 0, `POST /build/${project}?cmd=wipe&code=${other} wiped the binaries of a package in code ${code}: ${brief(kept)}`);
      expectServed(await wipe([other, code]), `POST /build/${project}?cmd=wipe&package=coded&code=${other}&code=${code}`);
      const until = Date.now() + Math.max(0, ctx.timeouts.checkMs - ctx.timeouts.backgroundMs) / 2;
      let after = await caller.get(where);
      while (childCount(after) > 0 && Date.now() < until && !ctx.signal.aborted) {
        await new Promise((r) => setTimeout(r, 100));
        after = await caller.get(where);
      }
      if (childCount(after) > 0) await stillCode();
      ctx.expect(childCount(after) === 0, `POST /build/${project}?cmd=wipe&code=${other}&code=${code} left the binaries of a package in code ${code} (the repeated code was not taken): ${brief(after)}`);
    });
  },
);

export const checks = [workerStatus, workerCapabilities, checkconstraintsNeedsParams, commandsAccepted, abortbuild, wipe, unpublish, codeFilter, noParametersMeansAll];
