// /source: projects, packages and files of build-ref (document: "Sources: projects",
// "Sources: packages and files").
import { createHash } from 'node:crypto';
import { attr, elements, parseXml, rootOf } from '../../../src/clients/xml.ts';
import { canWrite, notFound, ok, param, refuse, type Api, type Call, type Reply } from '../api.ts';
import { commit, newPackage, newProject, type Package, type Project } from '../world.ts';

function project(call: Call, name = call.params.project, opts: { deleted?: boolean } = {}): Project {
  const p = call.world.projects.get(name);
  if (!p || p.deleted !== (opts.deleted ?? false)) throw notFound(`project '${name}' does not exist`);
  return p;
}

function pkg(call: Call, p: Project, name = call.params.package): Package {
  const k = p.packages.get(name);
  if (!k || k.deleted) throw notFound(`package '${p.name}/${name}' does not exist`);
  return k;
}

function writable(call: Call, name: string): void {
  if (!canWrite(call.user, name)) throw refuse(403, 'modify_project_no_permission', `no permission to modify project '${name}'`);
}

/** A package's source listing. Entries carry the customary md5, size and mtime (osc's checkout reads all three). */
function packageListing(k: Package, extension?: string): Reply {
  const mtime = String(k.revisions.at(-1)?.time ?? 0);
  // `extension` keeps the files whose name ends in `.<extension>`.
  const entry = [...k.files.entries()].filter(([name]) => !extension || name.endsWith(`.${extension}`)).map(([name, content]) => ({ '@name': name, '@md5': md5(content), '@size': String(Buffer.byteLength(content)), '@mtime': mtime }));
  return { xml: { directory: { '@name': k.name, '@rev': String(k.revisions.length), '@srcmd5': srcmd5(k.files), entry } } };
}

/** The answer to a PUT that may create: 200 in the reference; the variant answers 201 when it created (no success code is stated). */
const created = (call: Call, isNew: boolean): Reply => ({ ...ok(), ...(call.variant && isNew ? { status: 201 } : {}) });

const md5 = (content: string) => createHash('md5').update(content, 'utf8').digest('hex');

/** One checksum for a whole file list (the service's "srcmd5"). */
const srcmd5 = (files: Map<string, string>) => md5([...files].sort(([a], [b]) => (a < b ? -1 : 1)).map(([n, c]) => `${md5(c)}  ${n}\n`).join(''));

export function registerSources(api: Api): void {
  const { world } = api;

  api.route('GET', '/source/', (call) => {
    const deleted = param(call, 'deleted') !== undefined && !call.faults.has('deleted-listing-ignored');
    return { xml: { directory: { entry: [...world.projects.values()].filter((p) => p.deleted === deleted).map((p) => ({ '@name': p.name })) } } };
  });

  api.route('GET', '/source/:project/_meta', (call) => ({ text: project(call).meta, contentType: 'application/xml' }));

  api.route('PUT', '/source/:project/_meta', (call) => {
    const name = call.params.project;
    writable(call, name);
    const root = rootOf(parseXml(call.body));
    if (root?.name !== 'project' || attr(root.node, 'name') !== name) throw refuse(400, 'invalid_project_meta', `body must be a <project name="${name}"> document`);
    const existing = world.projects.get(name);
    if (existing && !existing.deleted) existing.meta = call.body;
    else if (!call.faults.has('meta-put-ignored')) world.projects.set(name, newProject(name, call.body));
    return created(call, !existing || existing.deleted);
  });

  api.route('DELETE', '/source/:project', (call) => {
    const p = project(call);
    writable(call, p.name);
    p.deleted = true;
    for (const k of p.packages.values()) k.deleted = true;
    return ok();
  });

  api.route('GET', '/source/:project', (call) => {
    const p = project(call);
    const view = param(call, 'view');
    if (view && ['issues', 'productlist', 'verboseproductlist'].includes(view) && !call.faults.has('project-views-ignored')) return projectView(p, view);
    // `deleted` lists the deleted packages instead (as the build service's backend does).
    const deleted = param(call, 'deleted') !== undefined && !call.faults.has('package-list-deleted-ignored');
    const own = [...p.packages.values()].filter((k) => k.deleted === deleted).map((k) => ({ '@name': k.name }));
    // `expand` includes the packages of linked projects (<link project/> in the meta), with the project they come from.
    const linked = param(call, 'expand') !== undefined && !deleted && !call.faults.has('package-list-expand-ignored') ? linkedPackages(call, p, own.map((e) => e['@name'])) : [];
    const entry = [...own, ...linked];
    return { xml: { directory: { '@count': String(entry.length), entry } } };
  });

  api.route('POST', '/source/:project', (call) => {
    const cmd = param(call, 'cmd');
    const name = call.params.project;
    switch (cmd) {
      case 'undelete': {
        const p = project(call, name, { deleted: true });
        writable(call, name);
        if (!call.faults.has('undelete-noop')) {
          p.deleted = false;
          for (const k of p.packages.values()) k.deleted = false;
        }
        return ok();
      }
      case 'lock':
      case 'unlock': {
        const p = project(call);
        writable(call, name);
        p.locked = cmd === 'lock';
        return ok();
      }
      case 'move': {
        if (!call.user?.admin && !call.faults.has('move-not-admin-only')) throw refuse(403, 'cmd_execution_no_permission', 'move is an admin-only command');
        const from = param(call, 'oproject');
        if (!from) throw refuse(400, 'missing_parameter', 'move needs oproject');
        const source = project(call, from);
        world.projects.delete(from);
        world.projects.set(name, { ...source, name });
        return ok();
      }
      case 'set_flag':
      case 'remove_flag': {
        const p = project(call);
        writable(call, name);
        const flag = param(call, 'flag');
        const status = param(call, 'status');
        if ((!flag || !status) && !call.faults.has('set-flag-unchecked')) throw refuse(400, 'missing_parameter', `${cmd} needs at least flag and status`);
        if (cmd === 'set_flag') p.flags.push({ flag: flag ?? '', status: status ?? '', repository: param(call, 'repository'), arch: param(call, 'arch') });
        else p.flags = p.flags.filter((f) => !(f.flag === flag && f.repository === param(call, 'repository') && f.arch === param(call, 'arch')));
        return ok();
      }
      default:
        throw refuse(400, 'unknown_command', `unknown command '${cmd}'`);
    }
  });

  api.route('GET', '/source/:project/_config', (call) => {
    const p = project(call);
    return call.faults.has('config-as-xml') ? { text: `<config>${p.config}</config>`, contentType: 'application/xml' } : { text: p.config, contentType: 'text/plain' };
  });

  api.route('PUT', '/source/:project/_config', (call) => {
    const p = project(call);
    writable(call, p.name);
    p.config = call.body;
    return ok();
  });

  // ---- packages ----

  api.route('GET', '/source/:project/:package/_meta', (call) => {
    const p = project(call);
    const k = pkg(call, p);
    return { text: call.faults.has('package-meta-get-wrong') ? p.meta : k.meta, contentType: 'application/xml' };
  });

  api.route('PUT', '/source/:project/:package/_meta', (call) => {
    const p = project(call);
    writable(call, p.name);
    const root = rootOf(parseXml(call.body));
    if (root?.name !== 'package' || attr(root.node, 'name') !== call.params.package) throw refuse(400, 'invalid_package_meta', `body must be a <package name="${call.params.package}"> document`);
    const existing = p.packages.get(call.params.package);
    if (existing && !existing.deleted) existing.meta = call.body;
    else p.packages.set(call.params.package, { ...newPackage(call.params.package, p.name), meta: call.body });
    // A lock is written in the meta as the build service writes it: <lock><enable/></lock>.
    p.packages.get(call.params.package)!.locked = elements(elements(root.node, 'lock')[0], 'enable').length > 0;
    return created(call, !existing || existing.deleted);
  });

  api.route('DELETE', '/source/:project/:package', (call) => {
    const p = project(call);
    writable(call, p.name);
    const k = pkg(call, p);
    if (!call.faults.has('package-delete-noop')) k.deleted = true;
    return ok();
  });

  api.route('GET', '/source/:project/:package', (call) => {
    const p = project(call);
    const k = pkg(call, p);
    const view = param(call, 'view');
    if (view === 'info' && !call.faults.has('view-info-ignored')) return sourceInfo(k);
    if (view === 'cpio') return { bytes: cpioArchive(k.files, call.faults.has('view-cpio-drops-file'), call.variant), contentType: 'application/x-cpio' };
    if (view && ['issues', 'products', 'productrepositories'].includes(view) && !call.faults.has('package-views-ignored')) return packageView(p, k, view);
    const extension = call.faults.has('extension-filter-ignored') ? undefined : param(call, 'extension');
    return packageListing(k, extension);
  });

  api.route('GET', '/source/:project/:package/_history', (call) => {
    const k = pkg(call, project(call));
    // The element layout is "not shown" in the document; this is the service's customary one, which osc reads.
    return {
      xml: {
        revisionlist: {
          revision: k.revisions.map((r) => ({ '@rev': String(r.rev), '@vrev': String(r.rev), srcmd5: srcmd5(r.files), version: 'unknown', time: String(r.time), user: r.user, comment: r.comment })),
        },
      },
    };
  });

  api.route('GET', '/source/:project/:package/:filename', (call) => {
    const k = pkg(call, project(call));
    const content = k.files.get(call.params.filename);
    if (content === undefined) throw notFound(`file '${call.params.filename}' does not exist`);
    return { text: content, contentType: 'application/octet-stream' };
  });

  api.route('PUT', '/source/:project/:package/:filename', (call) => {
    const p = project(call);
    writable(call, p.name);
    const k = pkg(call, p);
    // rev=upload stages a file for cmd=commit; rev=repository stores one for cmd=commitfilelist.
    const rev = param(call, 'rev');
    if ((rev === 'upload' && !call.faults.has('upload-commits-immediately')) || rev === 'repository') {
      k.uploads.set(call.params.filename, call.body);
      return ok();
    }
    const files = new Map(k.files);
    files.set(call.params.filename, call.body);
    record(call, k, files, param(call, 'comment') ?? '');
    return ok();
  });

  api.route('DELETE', '/source/:project/:package/:filename', (call) => {
    const p = project(call);
    writable(call, p.name);
    const k = pkg(call, p);
    if (!k.files.has(call.params.filename)) throw notFound(`file '${call.params.filename}' does not exist`);
    const files = new Map(k.files);
    files.delete(call.params.filename);
    record(call, k, files, param(call, 'comment') ?? '');
    return ok();
  });

  api.route('POST', '/source/:project/:package', (call) => {
    const p = project(call);
    // copy creates the target package when it is absent.
    if (param(call, 'cmd') === 'copy') return copyPackage(call, p);
    const k = pkg(call, p);
    // `deleteuploadrev` may also come as a bare parameter.
    const cmd = param(call, 'cmd') ?? (param(call, 'deleteuploadrev') !== undefined ? 'deleteuploadrev' : undefined);
    switch (cmd) {
      case 'commit': {
        writable(call, p.name);
        if (param(call, 'rev') === undefined && !call.faults.has('commit-without-rev-accepted')) throw refuse(400, 'missing_parameter', 'commit needs rev');
        const files = new Map([...k.files, ...k.uploads]);
        k.uploads.clear();
        record(call, k, files, param(call, 'comment') ?? '');
        return ok();
      }
      case 'commitfilelist': {
        writable(call, p.name);
        // The body lists the files of the new revision by name and md5; each must be committed
        // already or uploaded with rev=repository. Missing ones are named back, as the service does.
        const listed = elements(parseXml(call.body), 'entry').map((e) => ({ name: attr(e, 'name') ?? '', md5: attr(e, 'md5') ?? '' }));
        if (!listed.length && !parseXml(call.body)) throw refuse(400, 'invalid_filelist', 'body must be a <directory> listing');
        const contentOf = (f: { name: string; md5: string }) => {
          const candidates = call.faults.has('commitfilelist-ignores-uploads') ? [k.files.get(f.name)] : [k.uploads.get(f.name), k.files.get(f.name)];
          return candidates.find((c) => c !== undefined && md5(c) === f.md5);
        };
        const missing = listed.filter((f) => contentOf(f) === undefined);
        if (missing.length) return { xml: { directory: { '@name': k.name, '@error': 'missing', entry: missing.map((f) => ({ '@name': f.name, '@md5': f.md5 })) } } };
        const files = new Map(listed.map((f) => [f.name, contentOf(f)!] as const));
        for (const f of listed) k.uploads.delete(f.name);
        record(call, k, files, param(call, 'comment') ?? '');
        return packageListing(k);
      }
      case 'getprojectservices':
        return { xml: { services: {} } };
      case 'deleteuploadrev':
        writable(call, p.name);
        if (!call.faults.has('deleteuploadrev-noop')) k.uploads.clear();
        return ok();
      case 'diff': {
        const rev = Number(param(call, 'rev') ?? k.revisions.length);
        const orev = Number(param(call, 'orev') ?? rev - 1);
        const text = diff(k, orev, rev);
        return call.faults.has('diff-as-xml') ? { xml: { diff: text } } : { text, contentType: 'text/plain' };
      }
      case 'createSpecFileTemplate': {
        writable(call, p.name);
        const spec = `${k.name}.spec`;
        if (k.files.has(spec) && !call.faults.has('spec-template-overwrites')) throw refuse(400, 'spec_file_exists', `SPEC file ${spec} already exists`);
        const files = new Map(k.files);
        files.set(spec, `Name: ${k.name}\nVersion: 0\nRelease: 0\nSummary: template\nLicense: MIT\n`);
        record(call, k, files, 'created spec file template');
        return ok();
      }
      case 'runservice':
        writable(call, p.name);
        return ok();
      case 'unlock': {
        writable(call, p.name);
        // "`comment` (unlock requires one)"
        if (!param(call, 'comment') && !call.faults.has('unlock-without-comment')) throw refuse(400, 'missing_parameter', 'unlock needs a comment');
        if (!k.locked) throw refuse(400, 'not_locked', `package '${p.name}/${k.name}' is not locked`);
        k.locked = false;
        k.meta = unlockMeta(k.meta);
        return ok();
      }
      case 'waitservice':
        // Services run synchronously here: waiting always finds the run finished and successful.
        return { ...ok(), status: call.faults.has('waitservice-202') ? 202 : 200 };
      default:
        throw refuse(400, 'unknown_command', `unknown command '${cmd}'`);
    }
  });
}

function record(call: Call, k: Package, files: Map<string, string>, comment: string): void {
  if (call.faults.has('history-not-recorded')) {
    k.files = new Map(files);
    return;
  }
  commit(k, files, call.user?.login ?? 'unknown', comment);
}

/** A plain unified-style diff of two revisions, file by file. */
function diff(k: Package, from: number, to: number): string {
  const a = k.revisions[from - 1]?.files ?? new Map<string, string>();
  const b = k.revisions[to - 1]?.files ?? k.files;
  const names = [...new Set([...a.keys(), ...b.keys()])].sort();
  const out: string[] = [];
  for (const name of names) {
    const x = a.get(name);
    const y = b.get(name);
    if (x === y) continue;
    out.push(`--- ${name}\t(revision ${from})`, `+++ ${name}\t(revision ${to})`);
    for (const line of (x ?? '').split('\n').filter(Boolean)) out.push(`-${line}`);
    for (const line of (y ?? '').split('\n').filter(Boolean)) out.push(`+${line}`);
  }
  return out.join('\n') + (out.length ? '\n' : '');
}

/** cmd=copy: the files of `opackage` in `oproject` (of revision `orev`, the latest by default) committed to this package, made if absent. */
function copyPackage(call: Call, p: Project): Reply {
  writable(call, p.name);
  const oproject = param(call, 'oproject');
  const opackage = param(call, 'opackage');
  if (!oproject || !opackage) throw refuse(400, 'missing_parameter', 'copy needs oproject and opackage');
  const source = pkg(call, project(call, oproject), opackage);
  const orev = param(call, 'orev');
  const revision = orev === undefined || call.faults.has('copy-ignores-orev') ? source.revisions.at(-1) : source.revisions.find((r) => String(r.rev) === orev);
  if (orev !== undefined && !revision) throw notFound(`revision ${orev} of '${oproject}/${opackage}' does not exist`);
  const name = call.params.package;
  let target = p.packages.get(name);
  if (!target || target.deleted) {
    target = newPackage(name, p.name);
    p.packages.set(name, target);
  }
  record(call, target, new Map(revision?.files ?? source.files), param(call, 'comment') ?? `copy of ${oproject}/${opackage}`);
  return ok();
}

/** The packages of the projects `p` links to (<link project="..."/> in its meta), those of `p` itself first. */
function linkedPackages(call: Call, p: Project, seen: string[]): { '@name': string; '@originproject': string }[] {
  const out: { '@name': string; '@originproject': string }[] = [];
  const names = new Set(seen);
  const visited = new Set([p.name]);
  const walk = (q: Project) => {
    for (const link of elements(rootOf(parseXml(q.meta))?.node, 'link')) {
      const to = call.world.projects.get(attr(link, 'project') ?? '');
      if (!to || to.deleted || visited.has(to.name)) continue;
      visited.add(to.name);
      for (const k of to.packages.values()) if (!k.deleted && !names.has(k.name)) {
        names.add(k.name);
        out.push({ '@name': k.name, '@originproject': to.name });
      }
      walk(to);
    }
  };
  walk(p);
  return out;
}

/** The project views of GET /source/<project>, in the build service's layouts (no issue trackers or products here: empty). */
function projectView(p: Project, view: string): Reply {
  if (view === 'issues') return { xml: { project: { '@name': p.name, package: [...p.packages.values()].filter((k) => !k.deleted).map((k) => ({ '@project': p.name, '@name': k.name })) } } };
  return { xml: { productlist: { '@count': '0' } } };
}

/** The package views issues, products and productrepositories, in the build service's layouts (empty here). */
function packageView(p: Project, k: Package, view: string): Reply {
  if (view === 'issues') return { xml: { package: { '@project': p.name, '@name': k.name } } };
  if (view === 'products') return { xml: { productlist: { '@count': '0' } } };
  return { xml: { productrepositories: {} } };
}

/** view=info: source version, md5sums and build description files, as the build service's <sourceinfo>. */
function sourceInfo(k: Package): Reply {
  const specs = [...k.files].filter(([n]) => n.endsWith('.spec'));
  const field = (name: string) => specs.map(([, c]) => new RegExp(`^${name}:\\s*(\\S+)`, 'm').exec(c)?.[1]).find(Boolean);
  const srcsum = srcmd5(k.files);
  return {
    xml: {
      sourceinfo: {
        '@package': k.name,
        '@rev': String(k.revisions.length),
        '@srcmd5': srcsum,
        '@verifymd5': srcsum,
        filename: specs.map(([n]) => n),
        ...(field('Name') ? { name: field('Name') } : {}),
        ...(field('Version') ? { version: field('Version') } : {}),
        ...(field('Release') ? { release: field('Release') } : {}),
      },
    },
  };
}

/**
 * view=cpio: every file of the package in one cpio archive. The format is not given (line 92:
 * "`cpio` streams all files as cpio"): the reference writes the "newc" format (magic 070701, as
 * the build service's backend does), the variant the portable "odc" one (magic 070707).
 */
export function cpioArchive(files: Map<string, string>, dropLast: boolean, variant: boolean): Buffer {
  const list = [...files].map(([n, c]) => [n, Buffer.from(c, 'utf8')] as const);
  if (dropLast) list.pop();
  const parts: Buffer[] = [];
  const pad4 = (n: number) => Buffer.alloc((4 - (n % 4)) % 4);
  const add = (name: string, data: Buffer, ino: number) => {
    const nameBytes = Buffer.from(`${name}\0`, 'latin1');
    if (variant) {
      const o = (v: number, w: number) => v.toString(8).padStart(w, '0');
      parts.push(Buffer.from(`070707${o(0, 6)}${o(ino, 6)}${o(name === 'TRAILER!!!' ? 0 : 0o100644, 6)}${o(0, 6)}${o(0, 6)}${o(1, 6)}${o(0, 6)}${o(1700000000, 11)}${o(nameBytes.length, 6)}${o(data.length, 11)}`, 'latin1'), nameBytes, data);
      return;
    }
    const h = (v: number) => v.toString(16).padStart(8, '0');
    const header = `070701${h(ino)}${h(name === 'TRAILER!!!' ? 0 : 0o100644)}${h(0)}${h(0)}${h(1)}${h(1700000000)}${h(data.length)}${h(0)}${h(0)}${h(0)}${h(0)}${h(nameBytes.length)}${h(0)}`;
    parts.push(Buffer.from(header, 'latin1'), nameBytes, pad4(110 + nameBytes.length), data, pad4(data.length));
  };
  list.forEach(([n, c], i) => add(n, c, i + 1));
  add('TRAILER!!!', Buffer.alloc(0), 0);
  return Buffer.concat(parts);
}

/** A package meta with its lock removed. */
function unlockMeta(meta: string): string {
  return meta.replace(/<lock>[\s\S]*?<\/lock>|<lock\s*\/>/g, '');
}
