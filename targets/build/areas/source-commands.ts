// The /source commands of build-ref beyond the basic ones in sources.ts: every `cmd=` the document
// lists for POST /source (line 80), POST /source/<project> (line 88) and POST
// /source/<project>/<package> (lines 97-104), and the project files _project, _pattern and
// _pubkey (lines 83, 86, 87). Where the document states only a name, the command does what the
// build service (Open Build Service 2.9: src/api/app/controllers/source_controller.rb,
// src/api/app/models/branch_package.rb, the backend's bs_srcserver) does with it, in its formats:
// `branch` and the commands that create something answer <status code="ok"> with <data
// name="targetproject">… children, `showlinked` a <collection> of <package>/<project>.
import { attr, elements, parseXml, rootOf, text } from '../../../src/clients/xml.ts';
import { canWrite, notFound, ok, param, refuse, type Call, type Reply } from '../api.ts';
import { expandFiles, LinkError, linkFile, linkOf, packagesLinkingTo, tryExpand } from '../links.ts';
import { md5, srcmd5 } from '../sums.ts';
import { areaState, newPackage, newProject, type Package, type Project, type World } from '../world.ts';
import { holdersOf, svc } from './attributes.ts';
import { builtBinaries, packageBuildControl, releaseInto, repositoriesOf } from './build.ts';
import { findRequest } from './requests.ts';
import { pkg, project, record, unifiedDiff, writable } from './source-util.ts';

/** Project files that are not packages: the signing key, patterns, frozen links. */
interface ProjectFiles {
  pubkey?: string;
  patterns: Map<string, string>;
  frozenlinks?: string;
}

const filesOf = (world: World, name: string): ProjectFiles => {
  const all = areaState(world, 'project-files', () => new Map<string, ProjectFiles>());
  if (!all.has(name)) all.set(name, { patterns: new Map() });
  return all.get(name)!;
};

/** The instance's global signing key: the last step of the _pubkey lookup (line 87). */
export const GLOBAL_PUBKEY = armored('build-ref global signing key');

function armored(who: string): string {
  const body = Buffer.from(`${who} ${md5(who)}`).toString('base64');
  return `-----BEGIN PGP PUBLIC KEY BLOCK-----\n\n${body}\n-----END PGP PUBLIC KEY BLOCK-----\n`;
}

const okWith = (data: Record<string, string>): Reply => ({
  xml: { status: { '@code': 'ok', summary: 'Ok', data: Object.entries(data).map(([name, value]) => ({ '@name': name, '#text': value })) } },
});

/** Text for an XML attribute or element built by hand. */
const esc = (v: string) => v.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const isTrue = (v: string | undefined) => v !== undefined && v !== '0' && v !== 'false';

const CHANNEL_MODES = ['add_disabled', 'skip_disabled', 'enable_all'];

function channelMode(call: Call): void {
  const mode = param(call, 'mode');
  if (mode !== undefined && !CHANNEL_MODES.includes(mode)) throw refuse(400, 'invalid_parameter', `mode must be one of ${CHANNEL_MODES.join(', ')}`);
}

/** The branch project of a user for `name` (the build service's User#branch_project_name). */
const branchProjectName = (call: Call, name: string) => `home:${call.user?.login ?? 'unknown'}:branches:${name}`;

/** A project made on behalf of the user if absent; refused where the user may not create it. */
function ensureProject(call: Call, name: string, title: string, from?: Project): Project {
  const existing = call.world.projects.get(name);
  if (existing && !existing.deleted) {
    writable(call, name);
    return existing;
  }
  writable(call, name);
  // New branch projects get the repositories of the project they branch from, building against it
  // (the build service's branch_to_repositories_from).
  const repos = from
    ? repositoriesOf(from)
        .map((r) => `<repository name="${esc(r.name)}"><path project="${esc(from.name)}" repository="${esc(r.name)}"/>${r.archs.map((a) => `<arch>${esc(a)}</arch>`).join('')}</repository>`)
        .join('')
    : '';
  const p = newProject(name, `<project name="${esc(name)}"><title>${esc(title)}</title><description/><person userid="${esc(call.user?.login ?? '')}" role="maintainer"/>${repos}</project>`);
  call.world.projects.set(name, p);
  return p;
}

/** Branches `source/k` into `target` as `targetName`: a package whose `_link` names the source, with baserev. */
function branchInto(call: Call, source: Project, k: Package, target: Project, targetName: string): void {
  const existing = target.packages.get(targetName);
  if (existing && !existing.deleted && !isTrue(param(call, 'force'))) throw refuse(400, 'double_branch_package', `branch target package already exists: ${target.name}/${targetName}`);
  const branched = existing && !existing.deleted ? existing : newPackage(targetName, target.name);
  branched.meta = `<package name="${esc(targetName)}" project="${esc(target.name)}"><title>${esc(targetName)}</title><description/></package>`;
  target.packages.set(targetName, branched);
  const base = srcmd5(tryExpand(call.world, source, k) ?? k.files);
  record(call, branched, new Map([['_link', linkFile(source.name, k.name, base)]]), param(call, 'comment') ?? `branched from ${source.name}/${k.name}`);
}

/** cmd=branch of a package (line 100): default target home:<user>:branches:<project>. */
function branchPackage(call: Call, p: Project, k: Package): Reply {
  const ignored = call.faults.has('branch-ignores-target');
  const targetProject = (ignored ? undefined : param(call, 'target_project')) ?? branchProjectName(call, p.name);
  const targetPackage = (ignored ? undefined : param(call, 'target_package')) ?? k.name;
  const target = ensureProject(call, targetProject, `Branch project for package ${k.name}`, p);
  branchInto(call, p, k, target, targetPackage);
  return okWith({ targetproject: target.name, targetpackage: targetPackage, sourceproject: p.name, sourcepackage: k.name });
}

/** Release targets of a project's repositories (<releasetarget project repository trigger/> in its meta). */
function releaseTargets(p: Project): { repository: string; archs: string[]; targets: { project: string; repository: string; trigger?: string }[] }[] {
  return elements(rootOf(parseXml(p.meta))?.node, 'repository').map((r) => ({
    repository: attr(r, 'name') ?? '',
    archs: elements(r, 'arch').map((a) => text(a)),
    targets: elements(r, 'releasetarget').map((t) => ({ project: attr(t, 'project') ?? '', repository: attr(t, 'repository') ?? '', trigger: attr(t, 'trigger') })),
  }));
}

/**
 * cmd=release (lines 88, 100): the sources and binaries of each package copied to the release
 * target of each repository whose trigger is manual, or to `target_project`/`target_repository`
 * from `repository` when given.
 */
function release(call: Call, p: Project, packages: Package[]): Reply {
  writable(call, p.name);
  const targetProject = param(call, 'target_project');
  const repository = param(call, 'repository');
  const targetRepository = param(call, 'target_repository');
  let plan: { repository: string; archs: string[]; project: string; targetRepository: string }[];
  if (targetProject !== undefined) {
    if ((!repository || !targetRepository) && !call.faults.has('release-target-unchecked')) throw refuse(400, 'missing_parameter', 'release with target_project needs repository and target_repository');
    const r = repositoriesOf(p).find((x) => x.name === repository) ?? (call.faults.has('release-target-unchecked') ? repositoriesOf(p)[0] : undefined);
    if (!r) throw notFound(`repository '${p.name}/${repository}' does not exist`);
    plan = [{ repository: r.name, archs: r.archs, project: targetProject, targetRepository: targetRepository ?? r.name }];
  } else {
    plan = releaseTargets(p)
      .filter((r) => !repository || r.repository === repository)
      .flatMap((r) => r.targets.filter((t) => t.trigger === 'manual').map((t) => ({ repository: r.repository, archs: r.archs, project: t.project, targetRepository: t.repository })));
  }
  if (!plan.length) throw refuse(400, 'no_release_target', `no release target with trigger manual in the repositories of '${p.name}'`);
  for (const step of plan) {
    const target = project(call, step.project);
    if (!canWrite(call.user, target.name)) throw refuse(403, 'release_target_no_permission', `no permission to release into '${target.name}'`);
    for (const k of packages) {
      let released = target.packages.get(k.name);
      if (!released || released.deleted) target.packages.set(k.name, (released = newPackage(k.name, target.name)));
      const files = tryExpand(call.world, p, k) ?? k.files;
      if (srcmd5(files) !== srcmd5(released.files)) record(call, released, new Map(files), param(call, 'comment') ?? `release from ${p.name}/${k.name}`);
      for (const arch of step.archs) if (builtBinaries(call.world, p, step.repository, arch, k).size) releaseInto(call.world, p, step.repository, arch, k, target, step.targetRepository, released);
    }
  }
  return ok();
}

/** Writes a flag into a meta document as the build service does: <build><disable repository arch/></build>. */
export function setMetaFlag(meta: string, root: string, flag: string, status: string, repository?: string, arch?: string): string {
  const attrs = `${repository ? ` repository="${esc(repository)}"` : ''}${arch ? ` arch="${esc(arch)}"` : ''}`;
  const cleaned = removeMetaFlag(meta, flag, repository, arch);
  const entry = `<${status}${attrs}/>`;
  const open = new RegExp(`<${flag}>`);
  if (open.test(cleaned)) return cleaned.replace(open, `<${flag}>${entry}`);
  const empty = new RegExp(`<${flag}\\s*/>`);
  if (empty.test(cleaned)) return cleaned.replace(empty, `<${flag}>${entry}</${flag}>`);
  return cleaned.replace(new RegExp(`</${root}>\\s*$`), `<${flag}>${entry}</${flag}></${root}>`);
}

export function removeMetaFlag(meta: string, flag: string, repository?: string, arch?: string): string {
  return meta.replace(new RegExp(`<${flag}>([\\s\\S]*?)</${flag}>`), (_all, inner: string) => {
    const kept = inner.replace(/<(enable|disable)\b([^>]*?)\/>/g, (e, _s, a: string) => {
      const rep = /repository="([^"]*)"/.exec(a)?.[1];
      const ar = /arch="([^"]*)"/.exec(a)?.[1];
      return rep === (repository === undefined ? undefined : esc(repository)) && ar === (arch === undefined ? undefined : esc(arch)) ? '' : e;
    });
    return kept.trim() ? `<${flag}>${kept}</${flag}>` : '';
  });
}

function flagCommand(call: Call, cmd: string): { flag: string; status?: string; repository?: string; arch?: string } {
  const flag = param(call, 'flag');
  const status = param(call, 'status');
  if (!flag || (cmd === 'set_flag' && !status)) throw refuse(400, 'missing_parameter', `${cmd} needs flag${cmd === 'set_flag' ? ' and status' : ''}`);
  if (!/^[a-z]+$/.test(flag)) throw refuse(400, 'invalid_flag', `unknown flag '${flag}'`);
  if (status !== undefined && status !== 'enable' && status !== 'disable') throw refuse(400, 'invalid_flag', 'status must be enable or disable');
  return { flag, status, repository: param(call, 'repository'), arch: param(call, 'arch') };
}

/** POST /source/<project>/<package> commands whose package need not exist (undelete, instantiate). */
export function packageCommandBeforeLookup(call: Call, p: Project, cmd: string | undefined): Reply | undefined {
  const name = call.params.package;
  switch (cmd) {
    case 'undelete': {
      writable(call, p.name);
      const k = p.packages.get(name);
      if (!k || !k.deleted) throw notFound(`deleted package '${p.name}/${name}' does not exist`);
      // "Admin-only operations: ... package `time` on undelete" (line 170).
      const time = param(call, 'time');
      if (time !== undefined && !call.user?.admin) throw refuse(403, 'cmd_execution_no_permission', 'only admins may set the time of an undelete');
      k.deleted = false;
      record(call, k, new Map(k.files), param(call, 'comment') ?? 'undeleted');
      const last = k.revisions.at(-1);
      if (time !== undefined && /^\d+$/.test(time) && last) last.time = Number(time);
      return ok();
    }
    case 'instantiate': {
      // A package that comes through a project link becomes a package of this project, a copy of the linked one.
      writable(call, p.name);
      const own = p.packages.get(name);
      if (own && !own.deleted) throw refuse(400, 'package_exists', `package '${p.name}/${name}' exists already`);
      const origin = linkedProjects(call.world, p).map((q) => q.packages.get(name)).find((k) => k && !k.deleted);
      if (!origin) throw notFound(`package '${name}' comes through no project link of '${p.name}'`);
      const k = newPackage(name, p.name);
      k.meta = origin.meta.replace(/<package\b[^>]*>/, `<package name="${esc(name)}" project="${esc(p.name)}">`);
      p.packages.set(name, k);
      record(call, k, new Map(origin.files), param(call, 'comment') ?? 'instantiated');
      return ok();
    }
    default:
      return undefined;
  }
}

/** The projects `p` links to, transitively (<link project/> in the metas). */
function linkedProjects(world: World, p: Project): Project[] {
  const out: Project[] = [];
  const walk = (q: Project) => {
    for (const l of elements(rootOf(parseXml(q.meta))?.node, 'link')) {
      const to = world.projects.get(attr(l, 'project') ?? '');
      if (to && !to.deleted && !out.includes(to) && to !== p) {
        out.push(to);
        walk(to);
      }
    }
  };
  walk(p);
  return out;
}

/** POST /source/<project>/<package>?cmd=… for the commands sources.ts does not handle itself; undefined when unknown. */
export function packageCommand(call: Call, p: Project, k: Package, cmd: string | undefined): Reply | undefined {
  switch (cmd) {
    case 'branch':
      return branchPackage(call, p, k);
    case 'showlinked':
      return { xml: { collection: { package: packagesLinkingTo(call.world, p.name, k.name).map((l) => ({ '@name': l.package, '@project': l.project })) } } };
    case 'release':
      return release(call, p, [k]);
    case 'set_flag':
    case 'remove_flag': {
      writable(call, p.name);
      const f = flagCommand(call, cmd);
      k.meta = cmd === 'set_flag' ? setMetaFlag(k.meta, 'package', f.flag, f.status!, f.repository, f.arch) : removeMetaFlag(k.meta, f.flag, f.repository, f.arch);
      return ok();
    }
    case 'collectbuildenv': {
      // The build environment of `oproject`/`opackage` stored in this package, one _buildenv file per repository and arch.
      writable(call, p.name);
      const oproject = param(call, 'oproject');
      const opackage = param(call, 'opackage');
      if (!oproject || !opackage) {
        if (call.faults.has('collectbuildenv-unchecked')) return ok();
        throw refuse(400, 'missing_parameter', 'collectbuildenv needs oproject and opackage');
      }
      const op = project(call, oproject);
      pkg(call, op, opackage);
      const files = new Map(k.files);
      for (const r of repositoriesOf(p)) for (const arch of r.archs) files.set(`_buildenv.${r.name}.${arch}`, `<buildinfo project="${esc(op.name)}" repository="${esc(r.name)}" package="${esc(opackage)}"><arch>${esc(arch)}</arch><bdep name="gcc"/><bdep name="glibc-devel"/></buildinfo>\n`);
      record(call, k, files, param(call, 'comment') ?? `build environment of ${op.name}/${opackage}`);
      return ok();
    }
    case 'importchannel': {
      // The channel definition in the body becomes the package's _channel file.
      writable(call, p.name);
      const root = rootOf(parseXml(call.body));
      if (root?.name !== 'channel') throw refuse(400, 'invalid_channel', 'body must be a <channel> document');
      const targetProject = param(call, 'target_project');
      if (targetProject !== undefined) project(call, targetProject);
      record(call, k, new Map([...k.files, ['_channel', call.body]]), param(call, 'comment') ?? 'channel imported');
      return ok();
    }
    case 'linkdiff': {
      // The link's own changes: from the expanded link target to the expanded link.
      const link = linkOf(p, k);
      if (!link) throw refuse(400, 'not_a_link', `package '${p.name}/${k.name}' is no link`);
      try {
        const tp = project(call, link.project);
        const tk = pkg(call, tp, link.package);
        return { text: unifiedDiff(expandFiles(call.world, tp, tk), expandFiles(call.world, p, k), `${tp.name}/${tk.name}`, `${p.name}/${k.name}`), contentType: 'text/plain' };
      } catch (err) {
        if (err instanceof LinkError) throw refuse(400, 'expand_error', `broken link: ${err.message}`);
        throw err;
      }
    }
    case 'servicediff':
      // No source services run here: the service generated no file, and the diff is empty.
      return { text: '', contentType: 'text/plain' };
    case 'linktobranch': {
      writable(call, p.name);
      const link = linkOf(p, k);
      if (!link) throw refuse(400, 'not_a_link', `package '${p.name}/${k.name}' is no link`);
      const tp = project(call, link.project);
      const tk = pkg(call, tp, link.package);
      record(call, k, new Map([...k.files, ['_link', linkFile(link.project, link.package, srcmd5(tryExpand(call.world, tp, tk) ?? tk.files))]]), param(call, 'comment') ?? 'converted link to branch');
      return ok();
    }
    case 'enablechannel':
    case 'addchannels':
    case 'addcontainers':
      // No channels or containers are defined for packages here: nothing to add or enable.
      writable(call, p.name);
      channelMode(call);
      return ok();
    case 'updatepatchinfo': {
      writable(call, p.name);
      const patchinfo = k.files.get('_patchinfo');
      if (patchinfo === undefined) throw refuse(400, 'not_a_patchinfo', `package '${p.name}/${k.name}' has no _patchinfo`);
      record(call, k, new Map(k.files), param(call, 'comment') ?? 'updated patchinfo');
      return ok();
    }
    case 'rebuild':
    case 'wipe':
      writable(call, p.name);
      packageBuildControl(call, p, k, cmd);
      return ok();
    case 'mergeservice': {
      // Files a service generated (_service:<service>:<name>) become plain files; the _service file goes.
      writable(call, p.name);
      const files = new Map<string, string>();
      for (const [n, c] of k.files) {
        if (n === '_service') continue;
        const m = /^_service:[^:]+:(.+)$/.exec(n);
        files.set(m ? m[1] : n, c);
      }
      record(call, k, files, param(call, 'comment') ?? 'merged service files');
      return ok();
    }
    case 'time': {
      // Admin only (lines 103, 170): sets the time of the package's latest revision to `time` (epoch seconds).
      if (!call.user?.admin) throw refuse(403, 'cmd_execution_no_permission', 'time is an admin-only command');
      const time = param(call, 'time');
      const last = k.revisions.at(-1);
      if (time !== undefined && /^\d+$/.test(time) && last) last.time = Number(time);
      return ok();
    }
    default:
      return undefined;
  }
}

/** POST /source/<project>?cmd=… for the commands sources.ts does not handle itself; undefined when unknown. */
export function projectCommand(call: Call, cmd: string | undefined): Reply | undefined {
  const name = call.params.project;
  switch (cmd) {
    case 'createkey': {
      // "replaces an own key"
      const p = project(call);
      writable(call, p.name);
      const own = filesOf(call.world, p.name);
      if (!own.pubkey || !call.faults.has('createkey-keeps-key')) own.pubkey = armored(`${p.name} ${call.world.nextId()} ${Date.now()}`);
      return ok();
    }
    case 'extendkey': {
      const p = project(call);
      writable(call, p.name);
      if (!filesOf(call.world, p.name).pubkey) throw refuse(400, 'no_own_key', `project '${p.name}' has no own signing key`);
      return ok();
    }
    case 'freezelink': {
      // The packages of the linked projects frozen at their current sources, in _project/_frozenlinks.
      const p = project(call);
      writable(call, p.name);
      const linked = linkedProjects(call.world, p);
      filesOf(call.world, p.name).frozenlinks = `<frozenlinks>${linked
        .map((q) => `<frozenlink project="${esc(q.name)}">${[...q.packages.values()].filter((k) => !k.deleted).map((k) => `<package name="${esc(k.name)}" srcmd5="${srcmd5(k.files)}"/>`).join('')}</frozenlink>`)
        .join('')}</frozenlinks>\n`;
      return ok();
    }
    case 'showlinked': {
      const p = project(call);
      const by = [...call.world.projects.values()].filter((q) => !q.deleted && elements(rootOf(parseXml(q.meta))?.node, 'link').some((l) => attr(l, 'project') === p.name));
      return { xml: { collection: { project: by.map((q) => ({ '@name': q.name })) } } };
    }
    case 'copy': {
      // The packages (and configuration) of `oproject` copied into this project, made if absent.
      const oproject = param(call, 'oproject');
      if (!oproject) throw refuse(400, 'missing_parameter', 'copy needs oproject');
      const from = project(call, oproject);
      writable(call, name);
      let p = call.world.projects.get(name);
      if (!p || p.deleted) {
        p = newProject(name, from.meta.replace(/<project\b([^>]*?)name="[^"]*"/, `<project$1name="${esc(name)}"`));
        call.world.projects.set(name, p);
      }
      p.config = from.config;
      for (const k of from.packages.values()) {
        if (k.deleted) continue;
        let copy = p.packages.get(k.name);
        if (!copy || copy.deleted) {
          copy = newPackage(k.name, p.name);
          copy.meta = k.meta.replace(/<package\b[^>]*>/, `<package name="${esc(k.name)}" project="${esc(p.name)}">`);
          p.packages.set(k.name, copy);
        }
        record(call, copy, new Map(k.files), param(call, 'comment') ?? `copy of ${from.name}/${k.name}`);
      }
      return ok();
    }
    case 'createmaintenanceincident':
      return createIncident(call, project(call));
    case 'createpatchinfo': {
      const p = project(call);
      writable(call, p.name);
      const pname = param(call, 'name') ?? 'patchinfo';
      const existing = p.packages.get(pname);
      if (existing && !existing.deleted && !isTrue(param(call, 'force'))) throw refuse(400, 'patchinfo_file_exists', `patchinfo package '${p.name}/${pname}' exists already`);
      const k = newPackage(pname, p.name);
      p.packages.set(pname, k);
      const who = call.user?.login ?? '';
      record(call, k, new Map([['_patchinfo', `<patchinfo><packager>${esc(who)}</packager><category>recommended</category><rating>low</rating><summary>${esc(param(call, 'comment') ?? '')}</summary><description/></patchinfo>\n`]]), param(call, 'comment') ?? 'created patchinfo');
      return okWith({ targetproject: p.name, targetpackage: pname });
    }
    case 'addchannels':
    case 'modifychannels':
    case 'addcontainers': {
      // No channels or containers are defined here: nothing to add or change.
      const p = project(call);
      writable(call, p.name);
      channelMode(call);
      return ok();
    }
    case 'release': {
      const p = project(call);
      return release(call, p, [...p.packages.values()].filter((k) => !k.deleted));
    }
    default:
      return undefined;
  }
}

/** A new maintenance incident project below `p`: <p>:<n>, the next free number. */
function createIncident(call: Call, p: Project): Reply {
  writable(call, p.name);
  let n = 1;
  while (call.world.projects.has(`${p.name}:${n}`)) n++;
  const name = `${p.name}:${n}`;
  call.world.projects.set(name, newProject(name, `<project name="${esc(name)}" kind="maintenance_incident"><title>${esc(name)}</title><description>${esc(param(call, 'comment') ?? '')}</description></project>`));
  return okWith({ targetproject: name });
}

/** POST /source?cmd=… (line 80). */
export function globalCommand(call: Call): Reply {
  const cmd = param(call, 'cmd');
  switch (cmd) {
    case 'branch': {
      const request = param(call, 'request');
      if (request !== undefined) {
        // Every package of the request's submit actions, into home:<user>:branches:REQUEST_<id>.
        const r = findRequest(call, request);
        const targetName = param(call, 'target_project') ?? branchProjectName(call, `REQUEST_${r.id}`);
        const sources = r.actions.filter((a) => a.source?.project && a.source.package).map((a) => ({ p: project(call, a.source!.project!), name: a.source!.package! }));
        if (!sources.length) throw refuse(400, 'no_packages', `request ${r.id} names no source package to branch`);
        const target = ensureProject(call, targetName, `Branch project based on request ${r.id}`, sources[0].p);
        for (const s of sources) branchInto(call, s.p, pkg(call, s.p, s.name), target, s.name);
        return okWith({ targetproject: target.name });
      }
      // By attribute: `package` in every project that carries `attribute` (default SVC:Maintained).
      const name = param(call, 'package');
      if (!name) throw refuse(400, 'missing_parameter', 'branch needs package or request');
      const attribute = param(call, 'attribute') ?? svc(call.world, 'Maintained');
      const found = holdersOf(call.world, attribute)
        .filter((h) => !h.includes('/'))
        .map((h) => call.world.projects.get(h))
        .filter((q): q is Project => !!q && !q.deleted && !!q.packages.get(name) && !q.packages.get(name)!.deleted);
      if (!found.length) throw notFound(`no package '${name}' in a project with attribute ${attribute}`);
      const targetName = param(call, 'target_project') ?? branchProjectName(call, attribute.replace(/:/g, '_'));
      const target = ensureProject(call, targetName, `Branch project for package ${name}`, found[0]);
      // One package per project, named <package>.<project> (the build service's extended names).
      const names = found.map((q) => (found.length > 1 || isTrue(param(call, 'extend_package_names')) ? `${name}.${q.name.replace(/:/g, '_')}` : name));
      found.forEach((q, i) => branchInto(call, q, q.packages.get(name)!, target, names[i]));
      return found.length === 1 ? okWith({ targetproject: target.name, targetpackage: names[0], sourceproject: found[0].name, sourcepackage: name }) : okWith({ targetproject: target.name });
    }
    case 'orderkiwirepos':
      return { text: orderKiwiRepos(call), contentType: 'application/xml' };
    case 'createmaintenanceincident': {
      const attribute = param(call, 'attribute') ?? svc(call.world, 'Maintained');
      const holder = holdersOf(call.world, attribute).find((h) => !h.includes('/') && call.world.projects.get(h) && !call.world.projects.get(h)!.deleted);
      if (!holder) throw notFound(`no project carries attribute ${attribute}`);
      return createIncident(call, project(call, holder));
    }
    default:
      throw refuse(400, 'unknown_command', `unknown command '${cmd ?? ''}'`);
  }
}

/**
 * orderkiwirepos: the <repository> elements of a kiwi image description reordered by path
 * relations, a repository that builds against another (a <path> of its project repository, also
 * transitively) before it; otherwise in the order given.
 */
function orderKiwiRepos(call: Call): string {
  const root = rootOf(parseXml(call.body));
  if (root?.name !== 'image') throw refuse(400, 'invalid_kiwi', 'body must be a kiwi <image> description');
  const blocks = [...call.body.matchAll(/<repository\b[\s\S]*?(?:\/>|<\/repository>)/g)].map((m) => m[0]);
  const keyOf = (b: string) => /path="obs:\/\/\/?([^"]+?)\/([^"/]+)\/?"/.exec(b)?.slice(1, 3).join('/');
  const pathsOf = (key: string): string[] => {
    const [prj, ...rest] = key.split('/');
    const repo = rest.join('/');
    const p = call.world.projects.get(prj);
    const r = elements(rootOf(parseXml(p?.meta ?? ''))?.node, 'repository').find((x) => attr(x, 'name') === repo);
    return elements(r, 'path').map((x) => `${attr(x, 'project')}/${attr(x, 'repository')}`);
  };
  const reaches = (a: string, b: string) => {
    const seen = new Set<string>();
    const todo = [a];
    while (todo.length) {
      const x = todo.pop()!;
      for (const y of pathsOf(x)) {
        if (y === b) return true;
        if (!seen.has(y)) {
          seen.add(y);
          todo.push(y);
        }
      }
    }
    return false;
  };
  const ordered = [...blocks];
  // A stable insertion order: each repository moves before the first it reaches.
  for (let i = 1; i < ordered.length; i++) {
    const ka = keyOf(ordered[i]);
    if (!ka) continue;
    const j = ordered.slice(0, i).findIndex((b) => {
      const kb = keyOf(b);
      return kb !== undefined && reaches(ka, kb);
    });
    if (j >= 0) ordered.splice(j, 0, ordered.splice(i, 1)[0]);
  }
  let n = 0;
  return call.body.replace(/<repository\b[\s\S]*?(?:\/>|<\/repository>)/g, () => ordered[n++]);
}

// ---- project files: _project, _pattern, _pubkey ---------------------------------------------

/** The files of a project's `_project` (line 83): its config, key, patterns and frozen links; with `meta`, its meta. */
export function projectFileList(call: Call): Record<string, string> {
  const p = project(call);
  const f = filesOf(call.world, p.name);
  const out: Record<string, string> = {};
  if (isTrue(param(call, 'meta'))) {
    out._meta = p.meta;
    return out;
  }
  if (p.config) out._config = p.config;
  if (f.pubkey) out._pubkey = f.pubkey;
  if (f.frozenlinks) out._frozenlinks = f.frozenlinks;
  for (const [n, c] of f.patterns) out[`_pattern:${n}`] = c;
  return out;
}

export function registerProjectFiles(api: { route: (m: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, h: (call: Call) => Reply) => void }): void {
  const listing = (files: Record<string, string>, name: string): Reply => ({
    xml: { directory: { '@name': name, '@srcmd5': srcmd5(new Map(Object.entries(files))), entry: Object.entries(files).map(([n, c]) => ({ '@name': n, '@md5': md5(c), '@size': String(Buffer.byteLength(c)), '@mtime': '0' })) } },
  });
  api.route('GET', '/source/:project/_project', (call) => listing(projectFileList(call), '_project'));
  api.route('GET', '/source/:project/_project/:file', (call) => {
    const content = projectFileList(call)[call.params.file];
    if (content === undefined) throw notFound(`file '_project/${call.params.file}' does not exist`);
    return { text: content, contentType: 'application/octet-stream' };
  });

  api.route('GET', '/source/:project/_pattern', (call) => {
    const p = project(call);
    return listing(Object.fromEntries(filesOf(call.world, p.name).patterns), '_pattern');
  });
  api.route('GET', '/source/:project/_pattern/:file', (call) => {
    const p = project(call);
    const content = filesOf(call.world, p.name).patterns.get(call.params.file);
    if (content === undefined) throw notFound(`pattern '${call.params.file}' does not exist`);
    return { text: content, contentType: 'application/xml' };
  });
  api.route('PUT', '/source/:project/_pattern/:file', (call) => {
    const p = project(call);
    writable(call, p.name);
    if (!rootOf(parseXml(call.body))) throw refuse(400, 'invalid_pattern', 'a pattern must be an XML document');
    filesOf(call.world, p.name).patterns.set(call.params.file, call.body);
    return ok();
  });
  api.route('DELETE', '/source/:project/_pattern/:file', (call) => {
    const p = project(call);
    writable(call, p.name);
    if (!filesOf(call.world, p.name).patterns.delete(call.params.file)) throw notFound(`pattern '${call.params.file}' does not exist`);
    return ok();
  });

  // "project GPG key; if none, the first in the namespace hierarchy up to the global key"
  api.route('GET', '/source/:project/_pubkey', (call) => {
    const p = project(call);
    const parts = p.name.split(':');
    // Under this fault a project without a key of its own has none (as the build service 2.9's backend answers).
    if (call.faults.has('pubkey-no-fallback') && !filesOf(call.world, p.name).pubkey) throw notFound(`${p.name}: no pubkey available`);
    // Under the fault, a project's own key or else straight the global one.
    for (let i = parts.length; i > (call.faults.has('pubkey-skips-hierarchy') ? parts.length - 1 : 0); i--) {
      const key = filesOf(call.world, parts.slice(0, i).join(':')).pubkey;
      if (key && call.world.projects.get(parts.slice(0, i).join(':'))) return { text: key, contentType: 'text/plain' };
    }
    return { text: GLOBAL_PUBKEY, contentType: 'text/plain' };
  });
  // "DELETE: remove key (no effect if none)"
  api.route('DELETE', '/source/:project/_pubkey', (call) => {
    const p = project(call);
    writable(call, p.name);
    delete filesOf(call.world, p.name).pubkey;
    return ok();
  });
}
