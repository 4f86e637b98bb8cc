// Helpers for the BUILD checks that work with requests (Requests, Staging, Status checks). The
// document does not show the request document, so bodies sent use the build service's customary
// form, and readers look only at what the document names: the request id, its state, its
// reviews (by_user, by_group, by_project, by_package), its action types and its priority.
import type { BuildCaller, BuildResponse } from '../../src/clients/build/session.ts';
import type { BuildCheckContext } from '../../src/core/check.ts';
import { CheckFailure } from '../../src/core/errors.ts';
import { attr, elements, rootOf, text, type XmlNode } from '../../src/clients/xml.ts';
import { brief, expect2xx, expectServed, rereadUntil, type Scratch } from './support.ts';

export interface ActionSpec {
  type: 'submit' | 'delete';
  source?: { project: string; package: string };
  target: { project: string; package?: string };
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
const end = (tag: string, e?: { project: string; package?: string }) => (e ? `<${tag} project="${esc(e.project)}"${e.package ? ` package="${esc(e.package)}"` : ''}/>` : '');

/** The customary request document with `actions`. */
export function requestXml(actions: ActionSpec[], description = 'created by a conformance check'): string {
  const body = actions.map((a) => `<action type="${a.type}">${end('source', a.source)}${end('target', a.target)}</action>`).join('');
  return `<request>${body}<description>${esc(description)}</description></request>`;
}

/** POST /request?cmd=create; returns the new request's id. */
export async function createRequest(caller: BuildCaller, actions: ActionSpec[], description?: string): Promise<string> {
  const res = expect2xx(await caller.post('/request', { query: { cmd: 'create' }, body: requestXml(actions, description) }), 'POST /request?cmd=create');
  const root = rootOf(res.xml);
  const id = root?.name === 'request' ? requestId(root.node) : undefined;
  if (!id) throw new CheckFailure(`POST /request?cmd=create: expected the created <request> with an id, got ${brief(res)}`);
  return id;
}

/** A package of the scratch project with a file of its own, so that a submit carries a change (a set-up step). */
export async function addSourcePackage(s: Scratch, name: string, file = `${name}.txt`): Promise<string> {
  await s.addPackage(name);
  const path = `/source/${s.project}/${name}/${file}`;
  await s.ctx.setup(`commit ${file} to ${s.project}/${name}`, async () => expect2xx(await s.caller.put(path, { body: `content of ${name}\n`, contentType: 'application/octet-stream' }), `PUT ${path}`));
  return name;
}

/** createRequest as a set-up step of the check. */
export function setupRequest(ctx: BuildCheckContext, caller: BuildCaller, actions: ActionSpec[], description?: string): Promise<string> {
  const what = actions.map((a) => `${a.type} ${a.source ? `${a.source.project}/${a.source.package} -> ` : ''}${a.target.project}/${a.target.package ?? ''}`).join(', ');
  return ctx.setup(`create a request (${what})`, () => createRequest(caller, actions, description));
}

/** A submit request from a new source package to a new target package of the scratch project (a set-up step). */
export async function scratchSubmit(s: Scratch, name: string, file?: string): Promise<string> {
  await addSourcePackage(s, name, file);
  await s.addPackage(`${name}-target`);
  return setupRequest(s.ctx, s.caller, [{ type: 'submit', source: { project: s.project, package: name }, target: { project: s.project, package: `${name}-target` } }]);
}

/** POST /request/<id>?cmd=addreview with `by` (a set-up step of checks that test something else). */
export async function setupReview(s: Scratch, id: string, by: Record<string, string>): Promise<void> {
  const shown = Object.entries(by).map(([k, v]) => `${k}=${v}`).join('&');
  await s.ctx.setup(`add a review (${shown}) to request ${id}`, async () => expect2xx(await s.caller.post(`/request/${id}`, { query: { cmd: 'addreview', ...by } }), `POST /request/${id}?cmd=addreview&${shown}`), { seeAlso: 'build.requests.addreview' });
}

/** POST /request/<id>?cmd=changereviewstate (a set-up step of checks that test something else). */
export async function setupReviewState(s: Scratch, id: string, by: Record<string, string>, newstate: string): Promise<void> {
  const shown = Object.entries(by).map(([k, v]) => `${k}=${v}`).join('&');
  await s.ctx.setup(`set the review (${shown}) of request ${id} to ${newstate}`, async () => expect2xx(await s.caller.post(`/request/${id}`, { query: { cmd: 'changereviewstate', ...by, newstate } }), `POST /request/${id}?cmd=changereviewstate&${shown}&newstate=${newstate}`), {
    seeAlso: 'build.requests.changereviewstate',
  });
}

export interface RequestView {
  res: BuildResponse;
  root: XmlNode | undefined;
  state: string | undefined;
  reviews: XmlNode[];
}

/** The direct child elements of `node` named `name`. */
export function direct(node: XmlNode | undefined, name: string): XmlNode[] {
  const v = node?.[name];
  if (v === undefined) return [];
  return (Array.isArray(v) ? v : [v]).map((x) => (typeof x === 'object' && x !== null ? (x as XmlNode) : { '#text': x }));
}

/** GET /request/<id>, read for its state name and reviews. */
export async function showRequest(caller: BuildCaller, id: string): Promise<RequestView> {
  // A request just created is found: an answer saying the route is not served ends the check inconclusive.
  const res = expectServed(await caller.get(`/request/${id}`), `GET /request/${id}`);
  const root = rootOf(res.xml);
  const node = root?.name === 'request' ? root.node : undefined;
  return { res, root: node, state: requestState(node), reviews: direct(node, 'review') };
}

/**
 * A request's id. The document shows no layout (line 43); the build service writes `<request id>`
 * (request.rng), and a conformant server may name it `number` (rubric 5: accept what is varied).
 */
export function requestId(node: XmlNode | undefined): string | undefined {
  return attr(node, 'id') ?? attr(node, 'number');
}

/**
 * A request's state: `<state name>` as the build service writes it (request.rng), or the text of
 * `<state>`, or a `state` attribute of the request (as its staging views list requests).
 */
export function requestState(node: XmlNode | undefined): string | undefined {
  const el = direct(node, 'state')[0];
  const named = el ? attr(el, 'name') ?? (text(el).trim() || undefined) : undefined;
  return named ?? attr(node, 'state');
}

/** The text of a direct child element of the request (e.g. `priority`). */
export function childText(view: RequestView, name: string): string | undefined {
  const el = direct(view.root, name)[0];
  return el ? text(el).trim() : undefined;
}

/** The ids of the `request` elements of a collection (or of a staging listing). */
export function requestIds(res: BuildResponse): string[] {
  return elements(res.xml, 'request')
    .map((r) => requestId(r))
    .filter((id): id is string => id !== undefined);
}

/** GET /request?view=collection&... ; the ids it lists. */
export async function collection(caller: BuildCaller, query: Record<string, string | number>): Promise<string[]> {
  const q = { view: 'collection', ...query };
  const shown = Object.entries(q).map(([k, v]) => `${k}=${v}`).join('&');
  return requestIds(expectServed(await caller.get('/request', { query: q }), `GET /request?${shown}`));
}

/**
 * Re-reads the request until its state is `state`, for what is left of ctx.timeouts.backgroundMs
 * or `ms` where less is meant (servers may finish asynchronously).
 */
export function waitForState(ctx: BuildCheckContext, caller: BuildCaller, id: string, state: string, ms?: number): Promise<RequestView> {
  return rereadUntil(ctx, () => showRequest(caller, id), (view) => view.state === state, ms);
}
