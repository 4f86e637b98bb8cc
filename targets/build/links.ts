// Source links of build-ref: a package whose sources hold a `_link` file (<link project package
// rev baserev/>, the build service's layout, backend BSXML.pm `$link`) takes the sources of the
// package it names, with its own files on top. The document names links only through their
// parameters (`linkrev`, `expand`, `keeplink`, `linkdiff`, `linktobranch`, ...); how they expand
// follows the build service: the expanded sources are the link target's (expanded again when it
// is a link itself) with the link's own files replacing those of the same name, without `_link`.
// Patches named inside a link are not applied here.
import { attr, parseXml, rootOf } from '../../src/clients/xml.ts';
import { srcmd5 } from './sums.ts';
import type { Package, Project, World } from './world.ts';

export interface Link {
  project: string;
  package: string;
  rev?: string;
  baserev?: string;
  /** The link's target may be missing (backend `missingok`): it then expands to the link's own files. */
  missingok?: boolean;
}

/** The link of a package (its `_link` file), resolved against its own project; undefined when it is no link. */
export function linkOf(p: Project, k: Package, files: Map<string, string> = k.files): Link | undefined {
  const text = files.get('_link');
  if (text === undefined) return undefined;
  const root = rootOf(parseXml(text));
  if (root?.name !== 'link') return { project: p.name, package: k.name };
  const missingok = attr(root.node, 'missingok');
  return { project: attr(root.node, 'project') ?? p.name, package: attr(root.node, 'package') ?? k.name, rev: attr(root.node, 'rev'), baserev: attr(root.node, 'baserev'), ...(missingok === 'true' || missingok === '1' ? { missingok: true } : {}) };
}

/** The `_link` file the build service writes for a branch: <link project package baserev><patches><branch/></patches></link>. */
export function linkFile(project: string, pkg: string, baserev?: string): string {
  return `<link project="${escapeAttr(project)}" package="${escapeAttr(pkg)}"${baserev ? ` baserev="${baserev}"` : ''}><patches><branch/></patches></link>\n`;
}

const escapeAttr = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');

export class LinkError extends Error {}

/** The live package a link points to, or a LinkError naming what is missing. */
export function linkTarget(world: World, link: Link): { p: Project; k: Package } {
  const p = world.projects.get(link.project);
  const k = p && !p.deleted ? p.packages.get(link.package) : undefined;
  if (!p || !k || k.deleted) throw new LinkError(`${link.project}/${link.package}: no such package`);
  return { p, k };
}

const liveTarget = (world: World, link: Link): boolean => {
  const p = world.projects.get(link.project);
  const k = p && !p.deleted ? p.packages.get(link.package) : undefined;
  return k !== undefined && !k.deleted;
};

/** The files of a link's target at the revision the link names (the latest by default). */
function targetFiles(world: World, link: Link, seen: Set<string>): Map<string, string> {
  // A missing target of a `missingok` link is no error: the backend expands it as empty sources
  // (OBS 2.9.4's recordings, test/data/obs-2.9: a branch of a package not yet in the update project).
  if (link.missingok && !liveTarget(world, link)) return new Map();
  const { p, k } = linkTarget(world, link);
  const key = `${p.name}/${k.name}`;
  if (seen.has(key)) throw new LinkError(`${key}: link loop`);
  seen.add(key);
  let files = k.files;
  if (link.rev) {
    const r = k.revisions.find((x) => String(x.rev) === link.rev || srcmd5(x.files) === link.rev);
    if (!r) throw new LinkError(`${key}: revision ${link.rev} does not exist`);
    files = r.files;
  }
  return expandFiles(world, p, k, files, seen);
}

/** The expanded sources of `files` (a package's, or one revision's); LinkError when a link is broken. */
export function expandFiles(world: World, p: Project, k: Package, files: Map<string, string> = k.files, seen = new Set<string>([`${p.name}/${k.name}`])): Map<string, string> {
  const link = linkOf(p, k, files);
  if (!link) return files;
  const out = new Map(targetFiles(world, link, seen));
  for (const [n, c] of files) if (n !== '_link') out.set(n, c);
  return out;
}

/** expandFiles, or undefined when the link is broken. */
export function tryExpand(world: World, p: Project, k: Package, files: Map<string, string> = k.files): Map<string, string> | undefined {
  try {
    return expandFiles(world, p, k, files);
  } catch (err) {
    if (err instanceof LinkError) return undefined;
    throw err;
  }
}

/**
 * The <linkinfo> of a package's listing, as the build service writes it (backend BSXML.pm
 * `$linkinfo`): the unexpanded listing names both the expanded (`xsrcmd5`) and the link's own
 * sources (`lsrcmd5`), the expanded one the link's own (OBS 2.9.4's recordings, test/data/obs-2.9).
 */
export function linkinfo(world: World, p: Project, k: Package, expanded: boolean): Record<string, string> | undefined {
  const link = linkOf(p, k);
  if (!link) return undefined;
  const info: Record<string, string> = { '@project': link.project, '@package': link.package };
  if (link.rev) info['@rev'] = link.rev;
  if (link.baserev) info['@baserev'] = link.baserev;
  if (link.missingok) info['@missingok'] = 'true';
  try {
    if (link.missingok && !liveTarget(world, link)) info['@srcmd5'] = srcmd5(new Map());
    else {
      const { p: tp, k: tk } = linkTarget(world, link);
      info['@srcmd5'] = srcmd5(tryExpand(world, tp, tk) ?? tk.files);
    }
    const x = expandFiles(world, p, k);
    if (!expanded) info['@xsrcmd5'] = srcmd5(x);
    info['@lsrcmd5'] = srcmd5(k.files);
  } catch (err) {
    if (!(err instanceof LinkError)) throw err;
    info['@error'] = err.message;
  }
  return info;
}

/** The packages of every project that link to `project/pkg`. */
export function packagesLinkingTo(world: World, project: string, pkg: string): { project: string; package: string }[] {
  const out: { project: string; package: string }[] = [];
  for (const p of world.projects.values()) {
    if (p.deleted) continue;
    for (const k of p.packages.values()) {
      if (k.deleted) continue;
      const link = linkOf(p, k);
      if (link && link.project === project && link.package === pkg && !(p.name === project && k.name === pkg)) out.push({ project: p.name, package: k.name });
    }
  }
  return out;
}
