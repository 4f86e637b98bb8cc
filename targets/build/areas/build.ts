// /build (results, logs, binaries, control), /worker, /published and the legacy /result routes of
// build-ref (document: "Build results", "Workers and control", "Published tree and legacy
// results"). The document does not show result shapes; these follow the build service's customary
// ones (resultlist/status, binarylist, directory/entry, jobhistlist) so that osc reads them.
//
// Builds are simulated: a package "builds" the moment it has committed sources in a project with
// repositories — `succeeded` with one binary (published at once) when it has a spec file,
// `broken` when it has none (the document's "package source bad, e.g. no spec file"); a rebuild
// of a package with a spec file runs by the clock as in the variant below (scheduled, building,
// succeeded). The fixture project is seeded with jobs in every result code the document lists.
//
// The variant (docs/open-choices.md) builds the way a real service does, only faster: a
// package with a spec file is `scheduled`, then `building` on a worker, then `succeeded`, about
// 1.2 s after its sources were committed (and again after each new commit or rebuild), and its
// binary is published a moment later. Its build control commands take effect in the background,
// shortly after they are answered.
import { attr, elements, parseXml, rootOf, text } from '../../../src/clients/xml.ts';
import type { BuildResultCode as ResultCode } from '../../../src/clients/build/result-codes.ts';
import { canWrite, notFound, ok, param, refuse, type Api, type Call, type Reply } from '../api.ts';
import { md5, srcmd5 } from '../sums.ts';
import { tryExpand } from '../links.ts';
import { areaState, type Package, type Project, type World } from '../world.ts';

interface JobHistoryEntry {
  package: string;
  code: ResultCode;
  reason: string;
  readytime: number;
  starttime: number;
  endtime: number;
}

interface Job {
  code: ResultCode;
  /** Binaries in the build area, name -> content. */
  binaries: Map<string, string>;
  /** Binaries in the publish area. */
  published: Map<string, string>;
  log: string;
  logTime: number;
  reason: string;
  /** Variant: the source revision the job builds (a new commit schedules a new build). */
  rev?: number;
  /** Variant: a build moving on by the clock (epoch ms): scheduled, building from `buildingAt`, over at `doneAt`. */
  progress?: { buildingAt: number; doneAt: number };
  /** Variant: when the finished build's binaries reach the publish area (epoch ms). */
  publishAt?: number;
}

interface BuildState {
  /** Jobs by `project/repository/arch/package`, created on first sight (see jobOf). */
  jobs: Map<string, Job>;
  /** Finished builds by `project/repository/arch`, oldest first. */
  history: Map<string, JobHistoryEntry[]>;
  /** Binaries uploaded to `project/repository/arch/_repository` by admins. */
  uploads: Map<string, Map<string, string>>;
  publishTimes: Map<string, { time: number; buildId: string }>;
  /** The server runs as the variant (set by registerBuild). */
  variant: boolean;
}

const state = (world: World) =>
  areaState<BuildState>(world, 'build', () => ({ jobs: new Map(), history: new Map(), uploads: new Map(), publishTimes: new Map(), variant: false }));

/** Variant: how long a build waits scheduled, and how long it then runs on a worker. */
const VARIANT_SCHEDULED_MS = 300;
const VARIANT_BUILDING_MS = 900;
/** Variant: from a finished build to its binaries in the publish area. */
const VARIANT_PUBLISH_MS = 200;
/** Variant: from a build control command's answer to its effect. */
const VARIANT_CONTROL_MS = 300;

/** The repositories of a project: seeded ones, else those its meta declares (<repository name><arch>…). */
export function repositoriesOf(p: Project): { name: string; archs: string[] }[] {
  if (p.repositories.length) return p.repositories;
  const root = rootOf(parseXml(p.meta));
  return elements(root?.node, 'repository').map((r) => ({ name: attr(r, 'name') ?? '', archs: elements(r, 'arch').map((a) => text(a)) }));
}

/**
 * The sources a package builds from: a link (a branch) builds its expanded sources, as the build
 * service's scheduler does.
 */
function sourcesOf(world: World, k: Package): Map<string, string> {
  if (!k.files.has('_link')) return k.files;
  const p = [...world.projects.values()].find((q) => q.packages.get(k.name) === k);
  return (p && tryExpand(world, p, k)) || k.files;
}

const versionOf = (world: World, k: Package) => /^Version:\s*(\S+)/m.exec([...sourcesOf(world, k)].find(([n]) => n.endsWith('.spec'))?.[1] ?? '')?.[1] ?? '0';

function logFor(p: string, repo: string, arch: string, k: string, code: ResultCode): string {
  const lines = [
    `[    0s] build-ref worker w1 started "build ${k}.spec" for ${p}/${repo}/${arch}`,
    `[    1s] + rpmbuild -ba ${k}.spec`,
    `[    2s] compiling ${k}`,
    code === 'failed' ? `[    3s] error: Bad exit status from /var/tmp/rpm-tmp (%build)` : `[    3s] wrote ${k}.rpm`,
    `[    4s] finished "build ${k}.spec" with result ${code}`,
  ];
  // A running build's log ends where the build is now.
  if (code === 'building') lines.splice(3);
  return `${lines.join('\n')}\n`;
}

/** The BuildRequires of a package's spec file. */
const buildRequires = (world: World, k: Package) => [...sourcesOf(world, k)].filter(([n]) => n.endsWith('.spec')).flatMap(([, c]) => [...c.matchAll(/^BuildRequires:\s*(\S+)/gm)].map((m) => m[1]));

const hasSpec = (world: World, k: Package) => [...sourcesOf(world, k).keys()].some((n) => n.endsWith('.spec'));

/**
 * A job as the simulated scheduler sees it: made on first sight from the package's sources. The
 * variant schedules a new build for each new source revision, and moves builds on by the clock.
 */
function jobOf(world: World, p: Project, repo: string, arch: string, k: Package): Job {
  const key = `${p.name}/${repo}/${arch}/${k.name}`;
  const s = state(world);
  let job = s.jobs.get(key);
  if (!s.variant) {
    if (!job) {
      job = newJob(world, p.name, repo, arch, k, hasSpec(world, k) ? 'succeeded' : 'broken');
      s.jobs.set(key, job);
    }
    // A rebuild runs by the clock here too (see control), so that a running build can be caught.
    if (job.progress) advance(world, job, p.name, repo, arch, k);
    return job;
  }
  if (!job || job.rev !== k.revisions.length) {
    job = newJob(world, p.name, repo, arch, k, 'broken');
    job.rev = k.revisions.length;
    if (hasSpec(world, k)) schedule(job);
    s.jobs.set(key, job);
  }
  advance(world, job, p.name, repo, arch, k);
  return job;
}

/** Variant: (re)starts a build: scheduled now, building shortly, over about 1.2 s later. */
function schedule(job: Job): void {
  const now = Date.now();
  job.code = 'scheduled';
  job.reason = job.rev === undefined || job.rev <= 1 ? 'new build' : 'source change';
  job.progress = { buildingAt: now + VARIANT_SCHEDULED_MS, doneAt: now + VARIANT_SCHEDULED_MS + VARIANT_BUILDING_MS };
  job.publishAt = undefined;
}

/** Variant: moves a job on to where the clock says it is. */
function advance(world: World, job: Job, project: string, repo: string, arch: string, k: Package): void {
  const now = Date.now();
  if (job.progress) {
    if (now >= job.progress.doneAt) {
      const done = newJob(world, project, repo, arch, k, 'succeeded');
      Object.assign(job, { code: done.code, binaries: done.binaries, published: new Map(), log: done.log, logTime: Math.floor(now / 1000), progress: undefined, publishAt: job.progress.doneAt + VARIANT_PUBLISH_MS });
    } else if (now >= job.progress.buildingAt && job.code !== 'building') {
      job.code = 'building';
      job.log = logFor(project, repo, arch, k.name, 'building');
    }
  }
  if (job.publishAt !== undefined && now >= job.publishAt) {
    job.published = new Map(job.binaries);
    job.publishAt = undefined;
  }
}

function newJob(world: World, project: string, repo: string, arch: string, k: Package, code: ResultCode): Job {
  const binaries = new Map<string, string>();
  if (code === 'succeeded') binaries.set(`${k.name}-${versionOf(world, k)}-0.${arch}.rpm`, `binary of ${k.name} for ${arch}\n`);
  return { code, binaries, published: new Map(binaries), log: logFor(project, repo, arch, k.name, code), logTime: Math.floor(Date.now() / 1000), reason: 'new build' };
}

/** Seeds the fixture project's jobs so that results cover every documented result code. */
export function seedBuilds(world: World, p: Project, codes: Record<string, Record<string, ResultCode>>): void {
  const s = state(world);
  const now = Math.floor(Date.now() / 1000);
  for (const repo of repositoriesOf(p)) {
    for (const [pkgName, byArch] of Object.entries(codes)) {
      const k = p.packages.get(pkgName)!;
      for (const arch of repo.archs) {
        const code = byArch[arch];
        if (!code) continue;
        const job = newJob(world, p.name, repo.name, arch, k, code);
        job.rev = k.revisions.length;
        s.jobs.set(`${p.name}/${repo.name}/${arch}/${pkgName}`, job);
        const hist = s.history.get(`${p.name}/${repo.name}/${arch}`) ?? [];
        for (let i = 0; i < 3; i++) hist.push({ package: pkgName, code: i < 2 ? 'succeeded' : code === 'failed' ? 'failed' : 'succeeded', reason: i ? 'source change' : 'new build', readytime: now - 3600 * (3 - i), starttime: now - 3600 * (3 - i) + 5, endtime: now - 3600 * (3 - i) + 65 });
        s.history.set(`${p.name}/${repo.name}/${arch}`, hist);
      }
    }
    s.publishTimes.set(`${p.name}/${repo.name}`, { time: now - 600, buildId: '42' });
  }
  for (const hist of s.history.values()) hist.sort((a, b) => a.endtime - b.endtime);
}

function projectOf(call: Call, name = call.params.project): Project {
  const p = call.world.projects.get(name);
  if (!p || p.deleted) throw notFound(`project '${name}' does not exist`);
  return p;
}

function repoOf(p: Project, name: string): { name: string; archs: string[] } {
  const r = repositoriesOf(p).find((x) => x.name === name);
  if (!r) throw notFound(`repository '${p.name}/${name}' does not exist`);
  return r;
}

function archOf(p: Project, repo: string, arch: string): string {
  if (!repoOf(p, repo).archs.includes(arch)) throw notFound(`architecture '${arch}' is not built in '${p.name}/${repo}'`);
  return arch;
}

function packageOf(p: Project, name: string): Package {
  const k = p.packages.get(name);
  if (!k || k.deleted) throw notFound(`package '${p.name}/${name}' does not exist`);
  return k;
}

const livePackages = (p: Project) => [...p.packages.values()].filter((k) => !k.deleted);

/** Every value of a query parameter that may repeat. */
function params(call: Call, name: string): string[] {
  const v = call.query[name];
  return v === undefined ? [] : Array.isArray(v) ? v : [v];
}

/** The code a job is reported with ('done' under the fault: a code the document does not list). */
const reported = (call: Call, job: Job): string => (job.code === 'succeeded' && call.faults.has('result-code-undocumented') ? 'done' : job.code);

const directory = (names: string[]): Reply => ({ xml: { directory: { entry: names.map((n) => ({ '@name': n })) } } });

const binarylist = (files: Map<string, string>, extra: Record<string, string> = {}) => ({
  ...extra,
  binary: [...files].map(([name, content]) => ({ '@filename': name, '@size': String(Buffer.byteLength(content)), '@mtime': '1700000000' })),
});

export function registerBuild(api: Api): void {
  const { world } = api;
  state(world).variant = api.variant;

  // ---- listings -------------------------------------------------------------------------
  api.route('GET', '/build/', () => directory([...world.projects.values()].filter((p) => !p.deleted && repositoriesOf(p).length).map((p) => p.name)));
  api.route('GET', '/build/:project', (call) => directory(repositoriesOf(projectOf(call)).map((r) => r.name)));
  api.route('GET', '/build/:project/:repository', (call) => directory(repoOf(projectOf(call), call.params.repository).archs));
  api.route('GET', '/build/:project/:repository/:arch', (call) => {
    const p = projectOf(call);
    archOf(p, call.params.repository, call.params.arch);
    const names = livePackages(p).map((k) => k.name);
    return directory(call.faults.has('build-arch-listing-empty') ? [] : names);
  });

  // ---- _result ----------------------------------------------------------------------------
  api.route('GET', '/build/:project/_result', (call) => {
    const p = projectOf(call);
    const pkgs = params(call, 'package');
    const repos = params(call, 'repository');
    const archs = params(call, 'arch');
    // `view` repeats; without one the status view is meant.
    let views = params(call, 'view').length ? params(call, 'view') : [call.faults.has('result-default-view-summary') ? 'summary' : 'status'];
    if (call.faults.has('result-view-first-only')) views = views.slice(0, 1);
    const ignoreFilters = call.faults.has('result-filters-ignored');
    const result = repositoriesOf(p)
      .filter((r) => ignoreFilters || call.faults.has('result-repository-filter-ignored') || !repos.length || repos.includes(r.name))
      .flatMap((r) =>
        r.archs
          .filter((a) => ignoreFilters || !archs.length || archs.includes(a))
          .map((arch) => {
            const ks = livePackages(p).filter((k) => ignoreFilters || !pkgs.length || pkgs.includes(k.name));
            const jobs = ks.map((k) => [k, jobOf(world, p, r.name, arch, k)] as const);
            // The summary of each repository and arch inside its <result> (backend BSXML.pm `$result`).
            const counts = new Map<string, number>();
            for (const [, j] of jobs) counts.set(reported(call, j), (counts.get(reported(call, j)) ?? 0) + 1);
            return {
              '@project': p.name,
              '@repository': r.name,
              '@arch': arch,
              '@code': 'published',
              '@state': 'published',
              ...(views.includes('status') ? { status: jobs.map(([k, j]) => ({ '@package': k.name, '@code': reported(call, j) })) } : {}),
              ...(views.includes('binarylist') ? { binarylist: jobs.map(([k, j]) => binarylist(j.binaries, { '@package': k.name })) } : {}),
              ...(views.includes('summary') ? { summary: { statuscount: [...counts].map(([code, count]) => ({ '@code': code, '@count': String(count) })) } } : {}),
            };
          }),
      );
    return { xml: { resultlist: { '@state': 'b6a3c9', result } } };
  });

  // ---- per repository/arch ----------------------------------------------------------------
  api.route('GET', '/build/:project/:repository/_buildconfig', (call) => {
    const p = projectOf(call);
    repoOf(p, call.params.repository);
    return { text: `%define _project ${p.name}\nRepotype: rpm-md\n${p.config}`, contentType: 'text/plain' };
  });

  const depinfo = (call: Call): Reply => {
    const p = projectOf(call);
    archOf(p, call.params.repository, call.params.arch);
    let wanted = params(call, 'package');
    if (call.faults.has('builddepinfo-post-first-package-only')) wanted = wanted.slice(0, 1);
    const ks = livePackages(p).filter((k) => call.faults.has('builddepinfo-filter-ignored') || !wanted.length || wanted.includes(k.name));
    // As the build service writes it: <package name><source/><pkgdep/>…<subpkg/></package>; a
    // package's dependencies name other packages (BuildRequires of its spec file).
    return { xml: { builddepinfo: { package: ks.map((k) => ({ '@name': k.name, source: k.name, pkgdep: ['glibc-devel', ...buildRequires(world, k)], subpkg: k.name })) } } };
  };
  api.route('GET', '/build/:project/:repository/:arch/_builddepinfo', depinfo);
  api.route('POST', '/build/:project/:repository/:arch/_builddepinfo', depinfo);

  api.route('GET', '/build/:project/:repository/:arch/_jobhistory', (call) => {
    const p = projectOf(call);
    archOf(p, call.params.repository, call.params.arch);
    let hist = [...(state(world).history.get(`${p.name}/${call.params.repository}/${call.params.arch}`) ?? [])];
    const pkgs = params(call, 'package');
    const codes = params(call, 'code');
    if (pkgs.length && !call.faults.has('jobhistory-package-ignored')) hist = hist.filter((h) => pkgs.includes(h.package));
    if (codes.length && !call.faults.has('jobhistory-code-ignored')) hist = hist.filter((h) => codes.includes(h.code));
    const limit = Number(param(call, 'limit'));
    // The newest first when limited: the last `limit` builds are the interesting ones.
    if (Number.isInteger(limit) && limit > 0 && !call.faults.has('jobhistory-limit-ignored')) hist = hist.slice(-limit);
    const entry = (h: JobHistoryEntry) => ({ '@package': h.package, '@code': h.code, '@reason': h.reason, '@readytime': String(h.readytime), '@starttime': String(h.starttime), '@endtime': String(h.endtime), '@workerid': 'w1', '@hostarch': call.params.arch });
    return { xml: { jobhistlist: { jobhist: hist.map(entry) } } };
  });

  const uploads = (call: Call) => {
    const key = `${call.params.project}/${call.params.repository}/${call.params.arch}`;
    const s = state(world);
    if (!s.uploads.has(key)) s.uploads.set(key, new Map());
    return s.uploads.get(key)!;
  };
  const repositoryBinaries = (call: Call) => {
    const p = projectOf(call);
    archOf(p, call.params.repository, call.params.arch);
    const all = new Map<string, string>();
    for (const k of livePackages(p)) for (const [n, c] of jobOf(world, p, call.params.repository, call.params.arch, k).binaries) all.set(n, c);
    for (const [n, c] of uploads(call)) all.set(n, c);
    return all;
  };
  const adminOnly = (call: Call) => {
    if (!call.user?.admin && !call.faults.has('repository-upload-open-to-all')) throw refuse(403, 'no_permission', 'uploading binaries to a repository is for admins only');
  };
  api.route('GET', '/build/:project/:repository/:arch/_repository', (call) => ({ xml: { binarylist: binarylist(repositoryBinaries(call)) } }));
  api.route('GET', '/build/:project/:repository/:arch/_repository/:binary', (call) => {
    const content = repositoryBinaries(call).get(call.params.binary);
    if (content === undefined) throw notFound(`binary '${call.params.binary}' does not exist`);
    return { text: content, contentType: 'application/octet-stream' };
  });
  api.route('PUT', '/build/:project/:repository/:arch/_repository/:binary', (call) => {
    adminOnly(call);
    archOf(projectOf(call), call.params.repository, call.params.arch);
    uploads(call).set(call.params.binary, call.body);
    return ok();
  });
  api.route('POST', '/build/:project/:repository/:arch/_repository', (call) => {
    adminOnly(call);
    archOf(projectOf(call), call.params.repository, call.params.arch);
    uploads(call).set(param(call, 'match') ?? `upload-${Date.now()}.rpm`, call.body);
    return ok();
  });

  // ---- per package --------------------------------------------------------------------------
  const jobAt = (call: Call): { p: Project; k: Package; job: Job } => {
    const p = projectOf(call);
    archOf(p, call.params.repository, call.params.arch);
    const k = packageOf(p, call.params.package);
    return { p, k, job: jobOf(world, p, call.params.repository, call.params.arch, k) };
  };

  api.route('GET', '/build/:project/:repository/:arch/:package', (call) => ({ xml: { binarylist: binarylist(jobAt(call).job.binaries) } }));

  api.route('GET', '/build/:project/:repository/:arch/:package/_status', (call) => {
    const { k, job } = jobAt(call);
    return { xml: { status: { '@package': k.name, '@code': reported(call, job), ...(job.code === 'building' ? { details: 'building on w1' } : {}) } } };
  });
  api.route('GET', '/build/:project/:repository/:arch/:package/_reason', (call) => {
    const { job } = jobAt(call);
    if (call.faults.has('build-reason-not-xml')) return { text: `${job.reason}\n`, contentType: 'text/plain' };
    return { xml: { reason: { explain: job.reason, time: String(job.logTime) } } };
  });
  api.route('GET', '/build/:project/:repository/:arch/:package/_jobstatus', (call) => {
    const { job } = jobAt(call);
    // "empty when no job runs"
    const running = job.code === 'building' || (call.faults.has('abortbuild-leaves-job') && job.reason === 'aborted') || call.faults.has('jobstatus-always-filled');
    // The build service's <jobstatus code><starttime/><workerid/><hostarch/><uri/><arch/><job/><jobid/> (backend BSXML.pm `$jobstatus`).
    const jobName = `${call.params.project}::${call.params.repository}::${call.params.package}-${md5(`${call.params.project}/${call.params.package}/${job.logTime}`)}`;
    if (running) return { xml: { jobstatus: { '@code': 'building', starttime: String(job.logTime), workerid: 'w1', hostarch: call.params.arch, uri: 'http://127.0.0.1:0/worker/w1', arch: call.params.arch, job: jobName, jobid: md5(jobName) } } };
    if (call.faults.has('jobstatus-idle-code-attribute')) return { xml: { jobstatus: { '@code': 'building' } } };
    // "Empty": an empty body here, an empty <jobstatus/> element in the variant.
    return call.variant ? { xml: { jobstatus: {} } } : { text: '', contentType: 'application/xml' };
  });
  api.route('GET', '/build/:project/:repository/:arch/:package/_history', (call) => {
    const { k } = jobAt(call);
    const hist = (state(world).history.get(`${call.params.project}/${call.params.repository}/${call.params.arch}`) ?? []).filter((h) => h.package === k.name);
    // The build service's <buildhistory><entry rev srcmd5 versrel bcnt time/> (backend BSXML.pm), which osc prints.
    const sourcesAt = (i: number) => srcmd5(k.revisions[Math.min(i, k.revisions.length - 1)]?.files ?? k.files);
    return { xml: { buildhistory: { entry: hist.map((h, i) => ({ '@rev': String(Math.min(i + 1, Math.max(1, k.revisions.length))), '@srcmd5': sourcesAt(i), '@versrel': `${versionOf(world, k)}-0`, '@bcnt': String(i + 1), '@time': String(h.endtime), '@duration': String(h.endtime - h.starttime) })) } } };
  });
  api.route('GET', '/build/:project/:repository/:arch/:package/_log', (call) => {
    const { job } = jobAt(call);
    const log = Buffer.from(job.log, 'utf8');
    if (param(call, 'view') === 'entry') {
      const size = call.faults.has('log-entry-wrong-size') ? log.length + 1 : log.length;
      return { xml: { directory: { entry: { '@name': '_log', '@size': String(size), '@mtime': String(job.logTime) } } } };
    }
    const start = Number(param(call, 'start') ?? 0);
    // Whether `end` is inclusive is not stated: the reference stops before it, the variant includes it.
    const end = param(call, 'end') === undefined ? log.length : Number(param(call, 'end')) + (call.variant ? 1 : 0);
    const slice = call.faults.has('log-range-ignored') ? log : log.subarray(Math.max(0, start || 0), Math.max(0, Math.min(log.length, end)));
    return { text: slice.toString('utf8'), contentType: call.faults.has('log-not-text') ? 'application/octet-stream' : 'text/plain' };
  });
  const buildinfo = (call: Call): Reply => {
    const p = projectOf(call);
    archOf(p, call.params.repository, call.params.arch);
    const name = call.params.package;
    if (name === '_repository') {
      if (call.faults.has('buildinfo-repository-refused')) throw notFound("package '_repository' does not exist");
    } else packageOf(p, name);
    return { xml: { buildinfo: { '@project': p.name, '@repository': call.params.repository, '@package': name, arch: call.params.arch, bdep: [{ '@name': 'gcc' }, { '@name': 'glibc-devel' }] } } };
  };
  api.route('GET', '/build/:project/:repository/:arch/:package/_buildinfo', (call) => {
    if (call.faults.has('buildinfo-get-empty')) return { xml: { buildinfo: {} } };
    return buildinfo(call);
  });
  api.route('POST', '/build/:project/:repository/:arch/:package/_buildinfo', buildinfo);
  api.route('GET', '/build/:project/:repository/:arch/:package/:binary', (call) => {
    const { job } = jobAt(call);
    const content = job.binaries.get(call.params.binary);
    if (content === undefined) throw notFound(`binary '${call.params.binary}' does not exist`);
    const view = param(call, 'view');
    if ((view === 'fileinfo' || view === 'fileinfo_ext') && !call.faults.has('fileinfo-ignored')) {
      return { xml: { fileinfo: { '@filename': call.params.binary, name: call.params.package, version: versionOf(world, jobAt(call).k), arch: call.params.arch, size: String(Buffer.byteLength(content)) } } };
    }
    return { text: content, contentType: 'application/x-rpm' };
  });

  // ---- control --------------------------------------------------------------------------------
  api.route('POST', '/build/:project', (call) => {
    const p = projectOf(call);
    const cmd = param(call, 'cmd');
    const commands = ['rebuild', 'abortbuild', 'restartbuild', 'unpublish', 'sendsysrq', 'wipe'];
    if (!cmd || !commands.includes(cmd) || (cmd === 'restartbuild' && call.faults.has('restartbuild-refused'))) throw refuse(400, 'unknown_command', `unknown command '${cmd ?? ''}'`);
    if (!canWrite(call.user, p.name)) throw refuse(403, 'no_permission', `no permission to control builds of '${p.name}'`);
    const pkgs = params(call, 'package');
    const repos = params(call, 'repository');
    const archs = params(call, 'arch');
    let codes = params(call, 'code');
    if (call.faults.has('control-code-ignored')) codes = [];
    if (call.faults.has('control-code-first-only')) codes = codes.slice(0, 1);
    // "No parameters means all packages."
    let targets = livePackages(p).filter((k) => !pkgs.length || pkgs.includes(k.name));
    if (!pkgs.length && call.faults.has('control-all-means-first')) targets = targets.slice(0, 1);
    // Where `repository` and `arch` select no repository and architecture of the project (or it
    // has none), the service refuses the command 400 "no repository defined" (backend bs_srcserver
    // `docommand`, passed on by the api's build_controller; OBS 2.9.4's recordings, test/data/obs-2.9:
    // Packages/triggering_package_rebuild/via_binaries_view.yml). The document states no code.
    const selected = repositoriesOf(p).filter((x) => !repos.length || repos.includes(x.name));
    if (!selected.some((r) => r.archs.some((a) => !archs.length || archs.includes(a)))) throw refuse(400, 'no_repository', 'no repository defined');
    for (const r of selected) {
      for (const arch of r.archs.filter((a) => !archs.length || archs.includes(a))) {
        for (const k of targets) {
          const job = jobOf(world, p, r.name, arch, k);
          if (codes.length && !codes.includes(job.code)) {
            if (call.faults.has('control-code-ignored-late')) setTimeout(() => control(cmd, jobOf(world, p, r.name, arch, k), call, k), 1500).unref();
            continue;
          }
          // The variant carries a command out in the background, shortly after answering it.
          if (call.variant) setTimeout(() => control(cmd, jobOf(world, p, r.name, arch, k), call, k), VARIANT_CONTROL_MS).unref();
          else control(cmd, job, call, k);
        }
      }
    }
    return ok();
  });

  // ---- workers --------------------------------------------------------------------------------
  api.route('GET', '/worker/_status', (call) => {
    if (call.faults.has('worker-status-empty')) return { xml: { workerstatus: {} } };
    const building = [...state(world).jobs.entries()].filter(([, j]) => j.code === 'building');
    return {
      xml: {
        workerstatus: {
          '@clients': '2',
          idle: { '@workerid': 'w2', '@hostarch': 'x86_64' },
          building: building.map(([key]) => ({ '@workerid': 'w1', '@hostarch': 'x86_64', '@project': key.split('/')[0], '@package': key.split('/').at(-1) })),
          waiting: [{ '@arch': 'x86_64', '@jobs': '0' }, { '@arch': 'aarch64', '@jobs': '1' }],
          partition: { daemon: [{ '@type': 'scheduler', '@arch': 'x86_64', '@state': 'running' }, { '@type': 'scheduler', '@arch': 'aarch64', '@state': 'running' }] },
        },
      },
    };
  });
  api.route('GET', '/worker/:worker', (call) => {
    const [hostarch, workerid] = call.params.worker.split(':');
    if (!workerid || !['w1', 'w2'].includes(workerid)) throw notFound(`worker '${call.params.worker}' does not exist`);
    const shown = call.faults.has('worker-capabilities-wrong-worker') ? (workerid === 'w1' ? 'w2' : 'w1') : workerid;
    return { xml: { worker: { '@hostarch': hostarch, '@workerid': shown, hostlabel: 'build-ref', sandbox: 'chroot', linux: { version: '6.1' }, hardware: { cpu: { flag: ['sse2'] }, processors: '2', memory: '4096' } } } };
  });
  api.route('POST', '/worker', (call) => {
    if (param(call, 'cmd') !== 'checkconstraints') throw refuse(400, 'unknown_command', `unknown command '${param(call, 'cmd') ?? ''}'`);
    const missing = ['project', 'package', 'arch', 'repository'].filter((n) => !param(call, n));
    if (missing.length && !call.faults.has('checkconstraints-unchecked') && !(call.faults.has('checkconstraints-checks-project-only') && param(call, 'project'))) throw refuse(400, 'missing_parameter', `checkconstraints needs ${missing.join(', ')}`);
    // The variant reads the body as the constraints to check, as the build service's backend does
    // (bs_repserver checkconstraints: an empty body is "not xml"); the document names no body.
    if (call.variant && !rootOf(parseXml(call.body))) throw refuse(400, 'not_xml', 'not xml: the body must be a constraints document');
    return directory(['x86_64:w1', 'x86_64:w2']);
  });

  // ---- published tree ---------------------------------------------------------------------------
  const publishedOf = (p: Project, repo: string, arch: string) => {
    const all = new Map<string, string>();
    for (const k of livePackages(p)) for (const [n, c] of jobOf(world, p, repo, arch, k).published) all.set(n, c);
    return all;
  };
  api.route('GET', '/published', () => directory([...world.projects.values()].filter((p) => !p.deleted && repositoriesOf(p).length).map((p) => p.name)));
  api.route('GET', '/published/:project', (call) => directory(call.faults.has('published-project-listing-empty') ? [] : repositoriesOf(projectOf(call)).map((r) => r.name)));
  api.route('GET', '/published/:project/:repository', (call) => {
    const p = projectOf(call);
    const r = repoOf(p, call.params.repository);
    if (param(call, 'view') === 'status' && call.faults.has('published-status-error-document')) return { xml: { status: { '@code': 'error', summary: 'view=status is not available here' } } };
    if (param(call, 'view') === 'status' && !call.faults.has('published-status-ignored')) {
      const t = state(world).publishTimes.get(`${p.name}/${r.name}`) ?? { time: 0, buildId: '0' };
      return { xml: { status: { '@code': 'published', starttime: String(t.time), endtime: String(t.time), buildid: t.buildId } } };
    }
    return directory(r.archs);
  });
  api.route('GET', '/published/:project/:repository/:arch', (call) => {
    const p = projectOf(call);
    archOf(p, call.params.repository, call.params.arch);
    return directory([...publishedOf(p, call.params.repository, call.params.arch).keys()]);
  });
  api.route('GET', '/published/:project/:repository/:arch/:binary', (call) => {
    const p = projectOf(call);
    archOf(p, call.params.repository, call.params.arch);
    const content = publishedOf(p, call.params.repository, call.params.arch).get(call.params.binary);
    if (content === undefined) throw notFound(`'${call.params.binary}' is not published`);
    if (param(call, 'view') === 'ymp' && !call.faults.has('ymp-ignored')) {
      const name = call.params.binary.replace(/-[^-]+-[^-]+\.[^.]+\.rpm$/, '');
      return {
        text: `<?xml version="1.0" encoding="utf-8"?>\n<metapackage xmlns:os="http://opensuse.org/Standards/One_Click_Install" xmlns="http://opensuse.org/Standards/One_Click_Install"><group><repositories><repository recommended="true"><name>${p.name}</name><url>${call.params.repository}</url></repository></repositories><software><item><name>${name}</name></item></software></group></metapackage>\n`,
        contentType: 'text/x-suse-ymp',
      };
    }
    return { text: content, contentType: 'application/x-rpm' };
  });

  // ---- legacy /result (platform = repository) ------------------------------------------------------
  api.route('GET', '/result/:project/:platform/result', (call) => {
    const p = projectOf(call);
    const r = repoOf(p, call.params.platform);
    if (call.faults.has('legacy-result-empty')) return { xml: { projectresult: { '@project': p.name, '@repository': r.name } } };
    const status = r.archs.flatMap((arch) => livePackages(p).map((k) => ({ '@package': k.name, '@arch': arch, '@code': reported(call, jobOf(world, p, r.name, arch, k)) })));
    return { xml: { projectresult: { '@project': p.name, '@repository': r.name, status } } };
  });
  api.route('GET', '/result/:project/:platform/:package/result', (call) => {
    const p = projectOf(call);
    const r = repoOf(p, call.params.platform);
    const k = packageOf(p, call.params.package);
    return { xml: { packageresult: { '@project': p.name, '@repository': r.name, '@package': k.name, status: r.archs.map((arch) => ({ '@arch': arch, '@code': reported(call, jobOf(world, p, r.name, arch, k)) })) } } };
  });
  api.route('GET', '/result/:project/:platform/:package/:arch/log', (call) => {
    const p = projectOf(call);
    archOf(p, call.params.platform, call.params.arch);
    const job = jobOf(world, p, call.params.platform, call.params.arch, packageOf(p, call.params.package));
    return { text: job.log, contentType: 'text/plain' };
  });
}

/** One build control command on one job. */
function control(cmd: string, job: Job, call: Call, k: Package): void {
  switch (cmd) {
    case 'abortbuild':
      // "kills running builds, marks failed"
      if (job.code !== 'building') return;
      job.progress = undefined;
      job.reason = 'aborted';
      job.code = call.faults.has('abortbuild-not-failed') ? 'scheduled' : 'failed';
      job.log += '[  99s] build aborted by request\n';
      return;
    case 'wipe':
      // "delete binaries from build area"
      if (!call.faults.has('wipe-noop')) job.binaries.clear();
      return;
    case 'unpublish':
      // "delete binaries from publish area"
      if (!call.faults.has('unpublish-noop')) {
        job.published.clear();
        job.publishAt = undefined;
      }
      return;
    case 'rebuild':
    case 'restartbuild':
      if (job.code !== 'disabled' && job.code !== 'excluded') {
        // A package with a spec file is rebuilt by the clock (scheduled, building, succeeded about
        // 1.2 s later), in the variant as in the reference: a running build to abort.
        if (hasSpec(call.world, k)) {
          schedule(job);
          job.reason = 'rebuild counter sync';
          return;
        }
        job.code = 'scheduled';
        job.reason = 'rebuild counter sync';
      }
      return;
    default:
      return; // sendsysrq: no sandbox to signal here
  }
}

/**
 * Package commands of /source that act on the build area (`rebuild`, `wipe`): the command on the
 * package's jobs in every repository and architecture, or in those `repository` and `arch` name.
 */
export function packageBuildControl(call: Call, p: Project, k: Package, cmd: 'rebuild' | 'wipe'): void {
  const repos = params(call, 'repository');
  const archs = params(call, 'arch');
  for (const r of repositoriesOf(p).filter((x) => !repos.length || repos.includes(x.name))) {
    for (const arch of r.archs.filter((a) => !archs.length || archs.includes(a))) control(cmd, jobOf(call.world, p, r.name, arch, k), call, k);
  }
}

/** The binaries of a package's build in one repository and architecture (its jobs made on first sight). */
export function builtBinaries(world: World, p: Project, repo: string, arch: string, k: Package): Map<string, string> {
  return jobOf(world, p, repo, arch, k).binaries;
}

/**
 * `release`: the binaries of a package's builds copied into the repository of the release target,
 * as built and published there (a released build of `k` in `target`/`targetRepo`).
 */
export function releaseInto(world: World, p: Project, repo: string, arch: string, k: Package, target: Project, targetRepo: string, released: Package): void {
  const from = jobOf(world, p, repo, arch, k);
  const s = state(world);
  const key = `${target.name}/${targetRepo}/${arch}/${released.name}`;
  const job: Job = { code: 'succeeded', binaries: new Map(from.binaries), published: new Map(from.binaries), log: from.log, logTime: Math.floor(Date.now() / 1000), reason: 'released', rev: released.revisions.length };
  s.jobs.set(key, job);
}

/** Every published binary: project, repository, arch, package, file name. */
export function publishedBinaries(world: World): { project: string; repository: string; arch: string; package: string; filename: string; released: boolean }[] {
  const out: { project: string; repository: string; arch: string; package: string; filename: string; released: boolean }[] = [];
  for (const [key, job] of state(world).jobs) {
    const [project, repository, arch, pkg] = key.split('/');
    const p = world.projects.get(project);
    if (!p || p.deleted || !p.packages.get(pkg) || p.packages.get(pkg)!.deleted) continue;
    for (const filename of job.published.keys()) out.push({ project, repository, arch, package: pkg, filename, released: job.reason === 'released' });
  }
  return out;
}
