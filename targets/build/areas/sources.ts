// /source: projects, packages and files of build-ref (document: "Sources: projects",
// "Sources: packages and files").
import { attr, elements, parseXml, rootOf, text, type XmlNode } from '../../../src/clients/xml.ts';
import { canWrite, notFound, ok, param, refuse, type Api, type Call, type Reply } from '../api.ts';
import { md5, srcmd5 } from '../sums.ts';
import { expandFiles, LinkError, linkinfo, linkOf, tryExpand } from '../links.ts';
import { newPackage, newProject, type Package, type Project } from '../world.ts';
import { pkg, project, record, unifiedDiff, writable } from './source-util.ts';
import { globalCommand, packageCommand, packageCommandBeforeLookup, projectCommand, registerProjectFiles, removeMetaFlag, setMetaFlag } from './source-commands.ts';

/**
 * A package's source listing. Entries carry the customary md5, size and mtime (osc's checkout reads
 * all three). A link's listing carries the build service's <linkinfo> (backend BSXML.pm `$dir`);
 * with `expand` it lists the expanded sources, whose srcmd5 the directory then names.
 */
function packageListing(call: Call, p: Project, k: Package, extension?: string): Reply {
  const mtime = String(k.revisions.at(-1)?.time ?? 0);
  // `rev` may name the expanded sources by their md5 (a link's xsrcmd5, which osc's checkout of a
  // link asks for), a revision by number or by srcmd5, or the latest.
  const rev = param(call, 'rev');
  const xsrcmd5 = linkOf(p, k) ? srcmd5(tryExpand(call.world, p, k) ?? k.files) : undefined;
  const expand = (isTrue(param(call, 'expand')) || (rev !== undefined && rev === xsrcmd5)) && linkOf(p, k) !== undefined;
  let files = k.files;
  if (expand) {
    try {
      files = expandFiles(call.world, p, k);
    } catch (err) {
      if (err instanceof LinkError) throw refuse(400, 'expand_error', `broken link: ${err.message}`);
      throw err;
    }
  }
  const li = linkinfo(call.world, p, k, expand);
  // `extension` keeps the files whose name ends in `.<extension>`.
  const entry = [...files.entries()].filter(([name]) => !extension || name.endsWith(`.${extension}`)).map(([name, content]) => ({ '@name': name, '@md5': md5(content), '@size': String(Buffer.byteLength(content)), '@mtime': mtime }));
  // An expanded listing's revision is its srcmd5 (the expanded sources have no revision number).
  // `vrev` as the backend writes it (BSXML.pm `$dir`; OBS 2.9.4's recordings, test/data/obs-2.9):
  // build-ref counts no version updates apart, so it is the revision number.
  return { xml: { directory: { '@name': k.name, '@rev': expand ? srcmd5(files) : String(k.revisions.length), '@vrev': String(k.revisions.length), '@srcmd5': srcmd5(files), ...(li ? { linkinfo: li } : {}), entry } } };
}

/**
 * The answer to a write that makes a revision (PUT of a file, cmd=commit, cmd=copy): the api passes
 * on its backend's <revision> (source_controller.rb `update_file`, `package_command_commit`,
 * `package_command_copy`: pass_to_backend; backend BSXML.pm `$revision`), as OBS 2.9.4's
 * recordings show (test/data/obs-2.9: `<revision rev vrev><srcmd5/><version/><time/><user/>
 * <comment/><requestid/></revision>`). A staged upload (rev=upload, rev=repository) is named by
 * that word.
 */
export function revisionReply(k: Package, staged?: string): Reply {
  const r = k.revisions.at(-1);
  const files = staged ? new Map([...k.files, ...k.uploads]) : (r?.files ?? k.files);
  const rev = staged ?? String(r?.rev ?? 0);
  return {
    xml: {
      revision: {
        '@rev': rev,
        '@vrev': rev,
        srcmd5: srcmd5(files),
        version: 'unknown',
        time: String(r?.time ?? Math.floor(Date.now() / 1000)),
        user: r?.user ?? 'unknown',
        comment: r?.comment ?? '',
        requestid: '',
      },
    },
  };
}

/** A boolean query parameter: given, and not 0 or false. */
export const isTrue = (v: string | undefined) => v !== undefined && v !== '0' && v !== 'false';

/** The answer to a PUT that may create: 200 in the reference; the variant answers 201 when it created (no success code is stated). */
const created = (call: Call, isNew: boolean): Reply => ({ ...ok(), ...(call.variant && isNew ? { status: 201 } : {}) });


export function registerSources(api: Api): void {
  const { world } = api;

  api.route('GET', '/source/', (call) => {
    const deleted = param(call, 'deleted') !== undefined && !call.faults.has('deleted-listing-ignored');
    return { xml: { directory: { entry: [...world.projects.values()].filter((p) => p.deleted === deleted).map((p) => ({ '@name': p.name })) } } };
  });

  api.route('POST', '/source/', (call) => globalCommand(call));
  registerProjectFiles(api);

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
          const restore = () => {
            p.deleted = false;
            for (const k of p.packages.values()) k.deleted = false;
          };
          // The variant restores the project in the background, shortly after answering (docs/open-choices.md).
          if (call.variant) setTimeout(restore, 300).unref();
          else restore();
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
        // The meta shows it as the build service writes it: <build><disable repository arch/></build>.
        if (flag && /^[a-z]+$/.test(flag)) {
          if (cmd === 'remove_flag') p.meta = removeMetaFlag(p.meta, flag, param(call, 'repository'), param(call, 'arch'));
          else if (status === 'enable' || status === 'disable') p.meta = setMetaFlag(p.meta, 'project', flag, status, param(call, 'repository'), param(call, 'arch'));
        }
        return ok();
      }
      default: {
        const reply = projectCommand(call, cmd);
        if (reply) return reply;
        throw refuse(400, 'unknown_command', `unknown command '${cmd}'`);
      }
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
    if (view === 'info' && !call.faults.has('view-info-ignored')) return sourceInfo(call, p, k);
    if (view === 'cpio') return { bytes: cpioArchive(k.files, call.faults.has('view-cpio-drops-file'), call.variant), contentType: 'application/x-cpio' };
    const ignored = call.faults.has('package-views-ignored') || (view === 'productrepositories' && call.faults.has('productrepositories-ignored'));
    if (view && ['issues', 'products', 'productrepositories'].includes(view) && !ignored) return packageView(call, p, k, view);
    const extension = call.faults.has('extension-filter-ignored') ? undefined : param(call, 'extension');
    return packageListing(call, p, k, extension);
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
    const p = project(call);
    const k = pkg(call, p);
    // A link's file that is not its own comes from the expanded sources (osc's checkout of a link reads them).
    const content = k.files.get(call.params.filename) ?? (linkOf(p, k) ? tryExpand(call.world, p, k)?.get(call.params.filename) : undefined);
    if (content === undefined) throw notFound(`file '${call.params.filename}' does not exist`);
    return { text: content, contentType: 'application/octet-stream' };
  });

  api.route('PUT', '/source/:project/:package/:filename', (call) => {
    const p = project(call);
    writable(call, p.name);
    const k = pkg(call, p);
    // A file name with a leading dot or control characters is refused, as the service's backend
    // does (BSVerify `verify_filename`; OBS 2.9.4's recordings, test/data/obs-2.9: PUT .../.test, 400
    // "filename '.test' is illegal"). The document states no rule on file names.
    if (/^\.|[\u0000-\u001f]/.test(call.params.filename)) throw refuse(400, 'invalid_filename', `filename '${call.params.filename}' is illegal`);
    // rev=upload stages a file for cmd=commit; rev=repository stores one for cmd=commitfilelist.
    const rev = param(call, 'rev');
    if ((rev === 'upload' && !call.faults.has('upload-commits-immediately')) || rev === 'repository') {
      k.uploads.set(call.params.filename, call.body);
      return revisionReply(k, rev);
    }
    const files = new Map(k.files);
    files.set(call.params.filename, call.body);
    record(call, k, files, param(call, 'comment') ?? '');
    return revisionReply(k);
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
    const early = packageCommandBeforeLookup(call, p, param(call, 'cmd'));
    if (early) return early;
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
        return revisionReply(k);
      }
      case 'commitfilelist': {
        writable(call, p.name);
        // The body lists the files of the new revision by name and md5; each must be committed
        // already or uploaded with rev=repository. Missing ones are named back, as the service does.
        const listed = elements(parseXml(call.body), 'entry').map((e) => ({ name: attr(e, 'name') ?? '', md5: attr(e, 'md5') ?? '' }));
        if (!listed.length && !parseXml(call.body)) throw refuse(400, 'invalid_filelist', 'body must be a <directory> listing');
        // With `keeplink`, a link's expanded sources are listed (osc commits a checked-out link so):
        // files the link target has are known, and the link keeps its _link with only the files
        // that differ from its target's (the link's own changes).
        const link = isTrue(param(call, 'keeplink')) ? linkOf(p, k) : undefined;
        const expanded = link ? (tryExpand(call.world, p, k) ?? k.files) : undefined;
        const contentOf = (f: { name: string; md5: string }) => {
          const candidates = call.faults.has('commitfilelist-ignores-uploads') ? [k.files.get(f.name)] : [k.uploads.get(f.name), k.files.get(f.name), expanded?.get(f.name)];
          return candidates.find((c) => c !== undefined && md5(c) === f.md5);
        };
        const missing = listed.filter((f) => contentOf(f) === undefined);
        if (missing.length) return { xml: { directory: { '@name': k.name, '@error': 'missing', entry: missing.map((f) => ({ '@name': f.name, '@md5': f.md5 })) } } };
        let files = new Map(listed.map((f) => [f.name, contentOf(f)!] as const));
        if (link && !files.has('_link')) {
          const targetProject = call.world.projects.get(link.project);
          const target = targetProject?.packages.get(link.package);
          const targetFiles = targetProject && target && !target.deleted ? (tryExpand(call.world, targetProject, target) ?? target.files) : new Map<string, string>();
          files = new Map([['_link', k.files.get('_link')!], ...[...files].filter(([n, c]) => targetFiles.get(n) !== c)]);
        }
        for (const f of listed) k.uploads.delete(f.name);
        record(call, k, files, param(call, 'comment') ?? '');
        return packageListing(call, p, k);
      }
      case 'getprojectservices':
        return { xml: { services: {} } };
      case 'deleteuploadrev':
        writable(call, p.name);
        if (!call.faults.has('deleteuploadrev-noop')) k.uploads.clear();
        return ok();
      case 'diff': {
        const text = diffCommand(call, p, k);
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
      default: {
        const reply = packageCommand(call, p, k, cmd);
        if (reply) return reply;
        throw refuse(400, 'unknown_command', `unknown command '${cmd}'`);
      }
    }
  });
}

/**
 * cmd=diff: from the sources of `oproject`/`opackage` at `orev` (the latest by default), or of this
 * package at `orev` (the revision before `rev` by default), to this package at `rev` (the latest
 * by default). Links are compared by their expanded sources unless `expand=0`.
 */
function diffCommand(call: Call, p: Project, k: Package): string {
  // An empty revision is refused, as the service's backend does (BSVerify `verify_rev`: "revision is
  // empty"; OBS 2.9.4's recordings, test/data/obs-2.9: Requests/decline/does_not_set_the_sourceupdate.yml).
  if (param(call, 'rev') === '' || param(call, 'orev') === '') throw refuse(400, 'invalid_revision', 'revision is empty');
  const rev = Number(param(call, 'rev') ?? k.revisions.length);
  const expand = param(call, 'expand') === undefined || isTrue(param(call, 'expand'));
  const at = (q: Project, x: Package, r: number | undefined) => {
    const files = r === undefined ? x.files : x.revisions[r - 1]?.files ?? new Map<string, string>();
    return expand ? (tryExpand(call.world, q, x, files) ?? files) : files;
  };
  const oproject = param(call, 'oproject');
  const opackage = param(call, 'opackage');
  if (oproject !== undefined || opackage !== undefined) {
    const op = project(call, oproject ?? p.name);
    const ok = pkg(call, op, opackage ?? k.name);
    const orev = param(call, 'orev');
    return unifiedDiff(at(op, ok, orev === undefined ? undefined : Number(orev)), at(p, k, rev), `${op.name}/${ok.name}`, `${p.name}/${k.name}`);
  }
  const orev = Number(param(call, 'orev') ?? rev - 1);
  return unifiedDiff(at(p, k, orev), at(p, k, rev), `revision ${orev}`, `revision ${rev}`);
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
  // `expand` copies a link's expanded sources (osc's detachbranch copies a link onto itself so);
  // `keeplink` keeps the target's own _link on top of them (as the build service does).
  const sourceProject = project(call, oproject);
  let files = new Map(revision?.files ?? source.files);
  if (isTrue(param(call, 'expand')) || isTrue(param(call, 'keeplink'))) {
    try {
      files = new Map(expandFiles(call.world, sourceProject, source, files));
    } catch (err) {
      if (err instanceof LinkError) throw refuse(400, 'expand_error', `broken link: ${err.message}`);
      throw err;
    }
    const ownLink = target.files.get('_link');
    if (isTrue(param(call, 'keeplink')) && ownLink !== undefined) files.set('_link', ownLink);
  }
  record(call, target, files, param(call, 'comment') ?? `copy of ${oproject}/${opackage}`);
  return revisionReply(target);
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

/**
 * The products a package defines: the <product> elements of its product definition files
 * (`*.product`, <productdefinition><products><product>), as the build service's backend reads them.
 */
function productsOf(k: Package): { node: XmlNode; name: string; definition: XmlNode }[] {
  return [...k.files]
    .filter(([n]) => n.endsWith('.product'))
    .flatMap(([, content]) => {
      const definition = rootOf(parseXml(content));
      if (definition?.name !== 'productdefinition') return [];
      return elements(elements(definition.node, 'products')[0], 'product').map((node) => ({ node, name: text(elements(node, 'name')[0]), definition: definition.node }));
    });
}

/**
 * The project views of GET /source/<project>, in the build service's layouts: the issues of its
 * packages (no issue trackers here: none), and the products its packages define (productlist; the
 * verbose one with each product's fields as elements), as the api's product views write them.
 */
function projectView(p: Project, view: string): Reply {
  if (view === 'issues') return { xml: { project: { '@name': p.name, package: [...p.packages.values()].filter((k) => !k.deleted).map((k) => ({ '@project': p.name, '@name': k.name })) } } };
  const products = [...p.packages.values()].filter((k) => !k.deleted).flatMap((k) => productsOf(k).map((x) => ({ ...x, k })));
  const product = products.map(({ node, name, k }) => {
    const field = (f: string) => text(elements(node, f)[0]) || undefined;
    const origin = { '@name': name, '@originproject': p.name, '@originpackage': k.name };
    return view === 'productlist' ? { ...origin, ...(field('cpe') ? { '@cpe': field('cpe') } : {}), ...(field('version') ? { '@version': field('version') } : {}) } : { ...origin, cpe: field('cpe'), version: field('version') };
  });
  return { xml: { productlist: { '@count': String(product.length), product } } };
}

/**
 * The package views issues, products and productrepositories, in the build service's layouts:
 * `products` lists the <product> elements of the package's product definitions (`product` keeps
 * the one of that name); `productrepositories` the repositories each product's update
 * repositories name (<updates><repository project name/>), as <repository path="<project with
 * :/>/<name>"><update/></repository>.
 */
function packageView(call: Call, p: Project, k: Package, view: string): Reply {
  if (view === 'issues') return { xml: { package: { '@project': p.name, '@name': k.name } } };
  const only = call.faults.has('product-filter-ignored') ? undefined : param(call, 'product');
  const products = productsOf(k).filter((x) => only === undefined || x.name === only);
  if (view === 'products') return { xml: { productlist: { '@count': String(products.length), product: products.map((x) => x.node) } } };
  return {
    xml: {
      productrepositories: {
        product: products.map(({ name, definition }) => ({
          '@name': name,
          repository: elements(elements(definition, 'updates')[0], 'repository').map((r) => ({ '@path': `${(attr(r, 'project') ?? '').replace(/:/g, ':/')}/${attr(r, 'name') ?? ''}`, update: '' })),
        })),
      },
    },
  };
}

/**
 * view=info: source version, md5sums and build description files, as the build service's
 * <sourceinfo> (backend BSXML.pm `$sourceinfo`; OBS 2.9.4's recordings, test/data/obs-2.9): `vrev`;
 * for a link, `srcmd5` of the expanded sources, `lsrcmd5` of its own and a <linked> element for
 * each package it links to; the time of the latest commit in <revtime>.
 */
function sourceInfo(call: Call, p: Project, k: Package): Reply {
  const link = linkOf(p, k);
  const files = link ? (tryExpand(call.world, p, k) ?? k.files) : k.files;
  const specs = [...files].filter(([n]) => n.endsWith('.spec'));
  const field = (name: string) => specs.map(([, c]) => new RegExp(`^${name}:\\s*(\\S+)`, 'm').exec(c)?.[1]).find(Boolean);
  const srcsum = srcmd5(files);
  const linked: { '@project': string; '@package': string }[] = [];
  for (let l = link, seen = new Set<string>(); l && !seen.has(`${l.project}/${l.package}`); ) {
    seen.add(`${l.project}/${l.package}`);
    linked.push({ '@project': l.project, '@package': l.package });
    const tp = call.world.projects.get(l.project);
    const tk = tp && !tp.deleted ? tp.packages.get(l.package) : undefined;
    l = tp && tk && !tk.deleted ? linkOf(tp, tk) : undefined;
  }
  const rev = String(k.revisions.length);
  const time = k.revisions.at(-1)?.time;
  return {
    xml: {
      sourceinfo: {
        '@package': k.name,
        '@rev': rev,
        '@vrev': rev,
        '@srcmd5': srcsum,
        ...(link ? { '@lsrcmd5': srcmd5(k.files) } : {}),
        '@verifymd5': srcsum,
        filename: specs.map(([n]) => n),
        ...(linked.length ? { linked } : {}),
        ...(time !== undefined ? { revtime: String(time) } : {}),
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
