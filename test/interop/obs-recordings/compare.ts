// How test/interop/obs-recordings.test.ts reads OBS 2.9.4's recordings (test/data/obs-2.9): route
// groups, which answers the api passes on from its backend, and the layout of an XML answer.
import { parseXml, type XmlNode } from '../../../src/clients/xml.ts';

/** A body as stored: the text, or its first characters and the full length when it was cut. */
export type Body = string | { text: string; cut: number };
/** [method, path, query pairs, request body, status, reason (errors only), content type, response body] */
export type Exchange = [string, string, [string, string][], Body, number, string, string, Body];
export interface Recordings {
  package: string;
  cassettes: { cassette: string; exchanges: Exchange[] }[];
}

const SEGMENTS: Record<string, string[]> = {
  source: ['{project}', '{package}', '{file}'],
  build: ['{project}', '{repository}', '{arch}', '{package}', '{binary}'],
  published: ['{project}', '{repository}', '{arch}', '{binary}'],
};

/** A path as a route template: `/source/{project}/{package}/_meta`; `_`-names are kept. */
export function templateOf(path: string): string {
  const [first, ...rest] = path.replace(/^\/+|\/+$/g, '').split('/');
  const names = SEGMENTS[first];
  if (!names) return `/${[first, ...rest].join('/')}`;
  return `/${[first, ...rest.map((s, i) => (s.startsWith('_') ? s : names[Math.min(i, names.length - 1)]))].join('/')}`;
}

/** The group an exchange is counted in: method, template, and its `cmd` or `view`. */
export function groupOf(method: string, path: string, query: [string, string][]): string {
  const cmd = query.find(([k]) => k === 'cmd')?.[1];
  const view = query.find(([k]) => k === 'view')?.[1];
  return `${method} ${templateOf(path)}${cmd ? `?cmd=${cmd}` : view ? `?view=${view}` : ''}`;
}

/**
 * Routes of the recordings the document does not name (the backend's own: the api calls them for
 * itself): not replayed. `POST /search/...` is the backend's form of the document's GET searches.
 */
const NOT_DOCUMENTED = [
  /^GET \/source\/\{project\}\/_keyinfo$/,
  /^POST \/search\//,
  /^GET \/build\/_workerstatus$/,
  /^GET \/build\/\{project\}\/\{repository\}\/\{arch\}\/\{package\}\/_statistics$/,
  /^GET \/build\/\{project\}\/_result\?view=versrel$/,
  /^GET \/source\/\{project\}\/\{package\}\/_serviceerror$/,
];
export const isDocumented = (group: string): boolean => !NOT_DOCUMENTED.some((r) => r.test(group));

/** Package commands whose answer the api passes on from the backend (source_controller.rb: `pass_to_backend`). */
const PASSED_COMMANDS = new Set(['diff', 'linkdiff', 'servicediff', 'commit', 'commitfilelist', 'copy', 'waitservice', 'mergeservice', 'runservice', 'deleteuploadrev', 'undelete', 'getprojectservices', 'collectbuildenv']);

/**
 * Whether the api (src/api/app/controllers/source_controller.rb, build_controller.rb,
 * search_controller.rb) answers this request with its backend's answer unchanged: then the
 * backend's recorded answer is the service's.
 */
export function isPassThrough(method: string, path: string, query: [string, string][]): boolean {
  const t = templateOf(path);
  const cmd = query.find(([k]) => k === 'cmd')?.[1];
  const hasMeta = query.some(([k]) => k === 'meta' || k === 'rev');
  if (method === 'GET' && /^\/build\//.test(t)) return true; // build_controller: pass_to_backend
  if (/^\/search\/published\//.test(t)) return true; // search_controller: pass_to_backend
  if (method === 'GET' && t === '/source/{project}/{package}') return true; // show_package
  if (method === 'GET' && /^\/source\/\{project\}\/\{package\}\/(\{file\}|_history|_link|_service|_patchinfo)$/.test(t)) return true; // get_file
  if (method === 'GET' && /^\/source\/\{project\}\/_project(\/|$)/.test(t)) return true;
  if (method === 'GET' && /\/_meta$/.test(t)) return hasMeta; // show_*_meta passes on only with rev/meta
  if (method === 'PUT' && /^\/source\/\{project\}\/\{package\}\/\{file\}$/.test(t)) return true; // update_file: pass_to_backend @path
  if (method === 'POST' && t === '/source/{project}/{package}' && cmd) return PASSED_COMMANDS.has(cmd);
  return false;
}

/**
 * The layout of an XML answer: each element's path from the root, each attribute's name
 * (`path/@name`), and where an element holds text (`path/#text`). Undefined when not XML.
 */
export function shapeOf(text: string): Set<string> | undefined {
  if (!/^\s*(<\?xml[^>]*>\s*)?<[A-Za-z_]/.test(text)) return undefined;
  const doc = parseXml(text);
  if (!doc) return undefined;
  const out = new Set<string>();
  const walk = (name: string, node: unknown, path: string) => {
    const p = path ? `${path}/${name}` : name;
    out.add(p);
    if (node === null || typeof node !== 'object') {
      if (String(node ?? '').trim() !== '') out.add(`${p}/#text`);
      return;
    }
    for (const [k, v] of Object.entries(node as XmlNode)) {
      if (k.startsWith('@')) out.add(`${p}/${k}`);
      else if (k === '#text') {
        if (String(v).trim() !== '') out.add(`${p}/#text`);
      } else for (const child of Array.isArray(v) ? v : [v]) walk(k, child, p);
    }
  };
  for (const [k, v] of Object.entries(doc)) if (!k.startsWith('?')) for (const child of Array.isArray(v) ? v : [v]) walk(k, child, '');
  return out;
}

/** What of OBS's layout (`theirs`) build-ref's (`ours`) holds. */
export function compareShapes(theirs: Set<string>, ours: Set<string>): { total: number; held: number; missing: string[]; extra: string[] } {
  const missing = [...theirs].filter((s) => !ours.has(s));
  return { total: theirs.size, held: theirs.size - missing.length, missing, extra: [...ours].filter((s) => !theirs.has(s)) };
}
