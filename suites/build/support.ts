// Helpers shared by the BUILD section files. The document states no error format and no status
// codes (but waitservice's 200), so a refusal is asserted only as "not a 2xx".
import { randomBytes } from 'node:crypto';
import type { BuildCaller, BuildResponse } from '../../src/clients/build/session.ts';
import type { BuildCheckContext } from '../../src/core/check.ts';
import { CheckFailure, CheckInconclusive } from '../../src/core/errors.ts';
import { elements, attr, rootOf } from '../../src/clients/xml.ts';
import { isBuildResultCode, type BuildResultCode } from '../../src/clients/build/result-codes.ts';

export function brief(res: BuildResponse): string {
  const body = res.text.length > 200 ? `${res.text.slice(0, 200)}…` : res.text;
  return `${res.status}${body ? ` ${body.replace(/\s+/g, ' ')}` : ''}`;
}

export function expect2xx(res: BuildResponse, what: string): BuildResponse {
  if (res.status < 200 || res.status > 299) throw new CheckFailure(`${what}: expected success (2xx), got ${brief(res)}`);
  return res;
}

export function expectNot2xx(res: BuildResponse, what: string): void {
  if (res.status >= 200 && res.status <= 299) throw new CheckFailure(`${what}: expected a refusal (not a 2xx), got ${brief(res)}`);
}

/**
 * Whether an answer says the route is not served here: any 404 (the do-nothing and half-built
 * servers answer `<status code="not_found">` to every route they lack, and the document gives no
 * way to tell that from a missing resource) or a build service backend's 400
 * `<status code="400"><summary>unknown request: GET:/about</summary>` (docs/build-service-differences.md;
 * BSDispatch.pm line 248 writes `die("400 unknown request: $path")`, so the summary goes on with
 * the method and path after the words).
 */
export function saysNotServed(res: BuildResponse): boolean {
  if (res.status === 404) return true;
  return res.status === 400 && /<summary>\s*unknown request\b/i.test(res.text);
}

/**
 * Ends the check as inconclusive when the answer says the route is not served (saysNotServed):
 * such an answer never passes or fails a rule about that route.
 */
export function notServed(res: BuildResponse, what: string, seeAlso?: string): void {
  if (!saysNotServed(res)) return;
  throw new CheckInconclusive(`${what}: answered ${brief(res)}: the route is not served here (or what it names does not exist), so the rule could not be tested`, seeAlso ? { seeAlso } : {});
}

/**
 * "The route is served": a request that must succeed on a route a rule is about. A 2xx is
 * returned; an answer saying the route is not served (notServed) ends the check inconclusive;
 * any other refusal fails it (the rule is the success itself).
 */
export function expectServed(res: BuildResponse, what: string, seeAlso?: string): BuildResponse {
  notServed(res, what, seeAlso);
  return expect2xx(res, what);
}

/**
 * The positive control of a refusal check: the same route and method answer a valid request (or
 * find an existing resource) with a 2xx before the check asserts a refusal there, so that a server
 * refusing everything never passes. If the control does not hold the refusal cannot be judged:
 * the check ends inconclusive (a set-up step, `seeAlso` the check owning that success).
 */
export async function routeServed(ctx: BuildCheckContext, what: string, send: () => Promise<BuildResponse>, seeAlso?: string): Promise<BuildResponse> {
  return ctx.setup(`positive control: ${what} is served`, async () => expect2xx(await send(), `${what} (positive control)`), seeAlso ? { seeAlso } : undefined);
}

/**
 * The control of an admin-only rule (line 170) whose ordinary user was let through: "admin only" is
 * a rule about who asks, so a 2xx to the ordinary user breaks it only on a server that tells who
 * asks. A server that authenticates no one (an Open Build Service backend, which trusts the api in
 * front of it) serves everyone alike; that breaks line 168, which build.authentication.basic-required
 * owns, and leaves the admin-only rule untested (rubric 2, 16). The control: `path`, read by the
 * ordinary user (a set-up step: the route is served), is refused to a request without
 * credentials. It is read on a route the user was seen served, so that an anonymous refusal is
 * about the missing credentials and not a route not served (an anonymous GET /about on that
 * backend is refused "unknown request", which would prove nothing). Read it before the command
 * under test (the path may name what the command changes). The returned function ends the check
 * inconclusive when the answer it is given is a 2xx and the anonymous read was served too.
 */
export async function authenticationControl(ctx: BuildCheckContext, caller: BuildCaller, path: string): Promise<(res: BuildResponse, what: string) => void> {
  await routeServed(ctx, `GET ${path} as the ordinary user`, () => caller.get(path));
  const anonymous = await ctx.build.anonymous().get(path);
  return (res, what) => {
    const ok = (r: BuildResponse) => r.status >= 200 && r.status <= 299;
    if (!ok(res) || !ok(anonymous)) return;
    throw new CheckInconclusive(`${what} answered ${brief(res)}, but GET ${path} without credentials is served too (${brief(anonymous)}): this server authenticates no one, so an admin-only rule cannot be judged`, {
      seeAlso: 'build.authentication.basic-required',
    });
  };
}

/**
 * Ends the check as inconclusive when the answer says the route is not served (saysNotServed),
 * and returns the answer otherwise: for answers whose refusal the check goes on to judge.
 */
export function served(res: BuildResponse, what: string, seeAlso?: string): BuildResponse {
  notServed(res, what, seeAlso);
  return res;
}

/**
 * A collection, as the search routes return them (section heading of lines 133-137: "return
 * collections"): the build service writes `<collection>`.
 */
export const isCollection = (res: BuildResponse): boolean => res.status >= 200 && res.status <= 299 && rootName(res) === 'collection';

/**
 * A bare status answer: the build service's `<status code="…">` with which it acknowledges a
 * command or reports an error, not a document about a package (a package's `_status` is a
 * `<status>` too, but its code is a build result code of line 47).
 */
export function isAck(res: BuildResponse): boolean {
  const root = rootOf(res.xml);
  if (!root || root.name !== 'status') return false;
  const code = attr(root.node, 'code');
  return !code || !isBuildResultCode(code);
}

/** The name of the root element of an XML body (undefined without one). */
export function rootName(res: BuildResponse): string | undefined {
  return rootOf(res.xml)?.name;
}

export function contentType(res: BuildResponse): string {
  return (res.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
}

/** Names of the `entry` elements of a directory listing (the document calls it a listing). */
export function entryNames(res: BuildResponse): string[] {
  return elements(res.xml, 'entry').map((e) => attr(e, 'name') ?? '');
}

/**
 * Every attribute value and element text of an XML body's root element and what it holds. The
 * document does not show result shapes, so a check asks only whether a listing or result names
 * something, not where. The XML declaration is not part of the body's content.
 */
export function xmlValues(res: BuildResponse): Set<string> {
  return valuesOf(rootOf(res.xml)?.node);
}

/** Every attribute value and element text of a parsed XML node and what it holds. */
export function nodeValues(node: unknown): Set<string> {
  return valuesOf(node);
}

function valuesOf(node: unknown): Set<string> {
  const out = new Set<string>();
  const walk = (n: unknown) => {
    if (Array.isArray(n)) return n.forEach(walk);
    if (n === null || n === undefined) return;
    if (typeof n !== 'object') return void out.add(String(n).trim());
    for (const v of Object.values(n as Record<string, unknown>)) walk(v);
  };
  walk(node);
  return out;
}

/**
 * The file names a binary list or a published directory names, read as the build service writes
 * them (line 43 shows no structure): `<binary filename>` of a binary list, else `<entry name>` of
 * a directory listing.
 */
export function fileNames(res: BuildResponse): string[] {
  const binaries = elements(rootOf(res.xml)?.node, 'binary').map((b) => attr(b, 'filename') ?? '').filter(Boolean);
  return binaries.length ? binaries : entryNames(res).filter(Boolean);
}

/** The documented build result codes (line 47) a body names, wherever it names them. */
export function resultCodes(res: BuildResponse): BuildResultCode[] {
  return [...xmlValues(res)].filter(isBuildResultCode);
}

/**
 * "Empty" as line 125 says of `_jobstatus` ("empty when no job runs"): an empty body, or a root
 * element with no child, no attribute and no text (`<jobstatus/>`, what the build service's
 * backend writes then: bs_repserver getjobstatus returns `{}`).
 */
export function isEmptyDocument(res: BuildResponse): boolean {
  if (!res.text.trim()) return true;
  const root = rootOf(res.xml);
  if (!root) return false;
  const node = root.node as unknown;
  if (node === '' || node === null || node === undefined) return true;
  if (typeof node !== 'object') return !String(node).trim();
  return Object.entries(node as Record<string, unknown>).every(([k, v]) => k === '#text' && !String(v).trim());
}

/** How many elements the root element of an XML body holds (0 for an empty body or an empty root). */
export function childCount(res: BuildResponse): number {
  const root = rootOf(res.xml);
  if (!root) return 0;
  return Object.entries(root.node)
    .filter(([k]) => !k.startsWith('@') && k !== '#text')
    .reduce((n, [, v]) => n + (Array.isArray(v) ? v.length : 1), 0);
}

/**
 * The elements the root element of an XML body holds, each as one comparable string: its values
 * (attributes and text, below it too) sorted, so that two answers naming the same entry compare
 * equal whatever order of attributes or children each writes (line 43: structure not shown).
 */
export function childEntries(res: BuildResponse): string[] {
  const root = rootOf(res.xml);
  if (!root) return [];
  return Object.entries(root.node)
    .filter(([k]) => !k.startsWith('@') && k !== '#text')
    .flatMap(([name, v]) => (Array.isArray(v) ? v : [v]).map((x) => `${name}:${[...valuesOf(x)].sort().join('|')}`));
}

/**
 * An attribute the document names with its neutral prefix (line 5: "the service's own name inside
 * attribute identifiers is replaced by the neutral prefix `SVC:`"), as the target names it:
 * `fixtures.attributeNamespace` (default `SVC`; an Open Build Service writes `OBS`). `id` is the
 * `<namespace>:<name>` of a path or parameter, `namespace` and `name` the parts a body names.
 */
export function svcAttribute(ctx: BuildCheckContext, name: string): { namespace: string; name: string; id: string } {
  const namespace = ctx.build.fixtures.attributeNamespace ?? 'SVC';
  return { namespace, name, id: `${namespace}:${name}` };
}

/** The values (attributes and text, below it too) of each element the root element of an XML body holds. */
export function childValues(res: BuildResponse): Set<string>[] {
  const root = rootOf(res.xml);
  if (!root) return [];
  return Object.entries(root.node)
    .filter(([k]) => !k.startsWith('@') && k !== '#text')
    .flatMap(([, v]) => (Array.isArray(v) ? v : [v]).map((x) => valuesOf(x)));
}

/** When each check's background budget ends (keyed by its context): see `backgroundLeft`. */
const budgets = new WeakMap<object, number>();

/**
 * How many milliseconds this check may still wait for what a server does in the background (a
 * build finishing, a command's effect becoming visible): `ctx.timeouts.backgroundMs` in all,
 * counted from the start of its scratch project (withScratchProject) or else from its first such
 * wait, so that a check that waits for a build and then for its command's effect ends inside its
 * time limit (timeoutsFor leaves a quarter of it for what comes after the wait).
 */
export function backgroundLeft(ctx: BuildCheckContext): number {
  let until = budgets.get(ctx);
  if (until === undefined) budgets.set(ctx, (until = Date.now() + ctx.timeouts.backgroundMs));
  return Math.max(0, until - Date.now());
}

/**
 * Reads until `done` holds of what `read` returns or the wait is over, and returns the last read.
 * The document does not say that a command's effect is visible by the time it is answered, so a
 * check that reads the effect of its own command gives a server what is left of
 * `ctx.timeouts.backgroundMs` (backgroundLeft) to carry it out, or `ms` where less is meant.
 */
export async function rereadUntil<T>(ctx: BuildCheckContext, read: () => Promise<T>, done: (v: T) => boolean, ms?: number): Promise<T> {
  const left = backgroundLeft(ctx);
  const until = Date.now() + (ms === undefined ? left : Math.min(ms, left));
  for (;;) {
    const v = await read();
    if (done(v) || Date.now() >= until || ctx.signal.aborted) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
}

export interface Scratch {
  ctx: BuildCheckContext;
  caller: BuildCaller;
  project: string;
  /** Creates a package in the scratch project (a set-up step). */
  addPackage(name: string): Promise<string>;
}

/**
 * A project of the check's own under the ordinary user's home, deleted afterwards: checks that
 * write never touch anything they did not create. Creating it, and its packages, are set-up
 * steps: a server that refuses them leaves the check inconclusive, not failed.
 */
export async function withScratchProject(ctx: BuildCheckContext, body: (s: Scratch) => Promise<void>, opts: { metaExtra?: string } = {}): Promise<void> {
  const caller = ctx.build.as('user');
  backgroundLeft(ctx);
  const project = `home:${ctx.build.username('user')}:conformance-${randomBytes(4).toString('hex')}`;
  const meta = `<project name="${project}"><title>conformance scratch project</title><description>created by a conformance check; safe to delete</description>${opts.metaExtra ?? ''}</project>`;
  await ctx.setup(`create the scratch project ${project}`, async () => expect2xx(await caller.put(`/source/${project}/_meta`, { body: meta }), `PUT /source/${project}/_meta (creating a scratch project)`), {
    seeAlso: 'build.projects.meta-put-creates',
  });
  try {
    await body({
      ctx,
      caller,
      project,
      addPackage: async (name) => {
        const pkgMeta = `<package name="${name}" project="${project}"><title>${name}</title><description/></package>`;
        await ctx.setup(`create the package ${project}/${name}`, async () => expect2xx(await caller.put(`/source/${project}/${name}/_meta`, { body: pkgMeta }), `PUT /source/${project}/${name}/_meta`));
        return name;
      },
    });
  } finally {
    await deleteProject(caller, project);
  }
}

/**
 * Removes a project a check made, whatever is left of it: `force=1` first (line 83: it deletes even
 * when other repositories have paths to it), and, when that is refused (an Open Build Service
 * backend answers `400 unknown parameter 'force'`: bs_srcserver line 6247 takes only user, comment
 * and requestid), once more without it. Clean-up, never judged: errors are swallowed.
 */
export async function deleteProject(caller: BuildCaller, project: string): Promise<void> {
  const forced = await caller.delete(`/source/${project}`, { query: { force: 1 } }).catch(() => undefined);
  if (forced && forced.status >= 200 && forced.status <= 299) return;
  await caller.delete(`/source/${project}`).catch(() => undefined);
}
