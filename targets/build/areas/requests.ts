// /request of build-ref (document: "Requests", and the request lines of "States and
// transitions"). Bodies use the build service's customary request document:
// <request id creator><action type><source project package/><target project package/></action>
// <state name/><review state by_user|by_group|by_project|by_package/><priority/><accept_at/>
// <description/></request>.
import { attr, elements, parseXml, rootOf, text, type XmlNode } from '../../../src/clients/xml.ts';
import { linkOf, tryExpand } from '../links.ts';
import { canWrite, notFound, ok, param, refuse, type Api, type Call, type Reply } from '../api.ts';
import { areaState, commit, newPackage, type World } from '../world.ts';

export type ReviewBy = 'by_user' | 'by_group' | 'by_project' | 'by_package';
export const REVIEW_BY: readonly ReviewBy[] = ['by_user', 'by_group', 'by_project', 'by_package'];

export interface Review {
  by: Partial<Record<ReviewBy, string>>;
  state: string;
  who?: string;
}

export interface Action {
  type: string;
  source?: { project?: string; package?: string };
  target?: { project?: string; package?: string };
}

export interface BuildRequest {
  id: number;
  creator: string;
  state: string;
  description: string;
  actions: Action[];
  reviews: Review[];
  priority: string;
  acceptAt?: string;
  approver?: string;
  history: { who: string; when: string; description: string }[];
}

const OPEN = new Set(['new', 'review']);

export function requestsOf(world: World): Map<number, BuildRequest> {
  return areaState(world, 'requests', () => new Map<number, BuildRequest>());
}

export function findRequest(call: Call, id: string | number): BuildRequest {
  const r = requestsOf(call.world).get(Number(id));
  if (!r) throw notFound(`request ${id} does not exist`);
  return r;
}

export const isOpen = (r: BuildRequest) => OPEN.has(r.state);
export const openReviews = (r: BuildRequest) => r.reviews.filter((v) => v.state === 'new');

const now = () => new Date().toISOString().replace(/\.\d+Z$/, '');

function log(r: BuildRequest, who: string, description: string): void {
  r.history.push({ who, when: now(), description });
}

function parseActions(root: XmlNode): Action[] {
  return elements(root, 'action').map((a) => {
    const src = elements(a, 'source')[0];
    const tgt = elements(a, 'target')[0];
    return {
      type: attr(a, 'type') ?? 'submit',
      ...(src ? { source: { project: attr(src, 'project'), package: attr(src, 'package') } } : {}),
      ...(tgt ? { target: { project: attr(tgt, 'project'), package: attr(tgt, 'package') } } : {}),
    };
  });
}

/** An accept time as written: ISO 8601 in the reference; the variant writes it as the build service does ("2026-11-24 14:00:00 UTC"; line 112 shows no format). */
const acceptTime = (iso: string, variant: boolean) => (variant ? iso.replace('T', ' ').replace(/(\.\d+)?Z$/, ' UTC') : iso);

/** How long after answering the variant carries out a request command's effect (docs/open-choices.md). */
const VARIANT_REQUEST_MS = 300;

export function renderRequest(r: BuildRequest, withHistory = false, variant = false): XmlNode {
  const ends = (e?: { project?: string; package?: string }) => (e ? { ...(e.project ? { '@project': e.project } : {}), ...(e.package ? { '@package': e.package } : {}) } : undefined);
  return {
    '@id': String(r.id),
    '@creator': r.creator,
    ...(r.approver ? { '@approver': r.approver } : {}),
    action: r.actions.map((a) => ({ '@type': a.type, ...(a.source ? { source: ends(a.source) } : {}), ...(a.target ? { target: ends(a.target) } : {}) })),
    state: { '@name': r.state, '@who': r.history.at(-1)?.who ?? r.creator, '@when': r.history.at(-1)?.when ?? now() },
    review: r.reviews.map((v) => ({ '@state': v.state, ...Object.fromEntries(Object.entries(v.by).map(([k, x]) => [`@${k}`, x])), ...(v.who ? { '@who': v.who } : {}) })),
    priority: r.priority,
    ...(r.acceptAt ? { accept_at: acceptTime(r.acceptAt, variant) } : {}),
    description: r.description,
    ...(withHistory ? { history: r.history.map((h) => ({ '@who': h.who, '@when': h.when, description: h.description })) } : {}),
  };
}

/** Carries out the actions of an accepted request on the sources. */
function perform(world: World, r: BuildRequest, who: string): void {
  for (const a of r.actions) {
    const target = a.target?.project ? world.projects.get(a.target.project) : undefined;
    if (!target || target.deleted) continue;
    if (a.type === 'submit' && a.source?.project && a.source.package) {
      const src = world.projects.get(a.source.project)?.packages.get(a.source.package);
      if (!src) continue;
      const name = a.target?.package ?? a.source.package;
      let tgt = target.packages.get(name);
      if (!tgt || tgt.deleted) target.packages.set(name, (tgt = newPackage(name, target.name)));
      // A branch (a link) is submitted by its expanded sources, as the build service does.
      const srcProject = world.projects.get(a.source.project)!;
      commit(tgt, new Map(linkOf(srcProject, src) ? (tryExpand(world, srcProject, src) ?? src.files) : src.files), who, `submit request ${r.id}`);
    } else if (a.type === 'delete') {
      if (a.target?.package) {
        const k = target.packages.get(a.target.package);
        if (k) k.deleted = true;
      } else target.deleted = true;
    }
  }
}

/** May `call.user` accept or decline `r`? Admins, and whoever may write every target. */
export function mayDecide(call: Call, r: BuildRequest): boolean {
  return r.actions.every((a) => canWrite(call.user, a.target?.project ?? ''));
}

export function setState(world: World, r: BuildRequest, state: string, who: string, comment = ''): void {
  r.state = state;
  log(r, who, comment || `state set to ${state}`);
  if (state === 'accepted') perform(world, r, who);
}

/** After a review changed: the last open review closed moves the request on. */
function afterReviews(call: Call, r: BuildRequest): void {
  if (r.state !== 'review') return;
  const early = call.faults.has('approve-accepts-before-last-review') && r.approver !== undefined;
  if (openReviews(r).length && !early) return;
  if (r.reviews.some((v) => v.state === 'declined')) return setState(call.world, r, 'declined', call.user!.login, 'review declined');
  if (r.approver && !call.faults.has('approve-ignored')) return setState(call.world, r, 'accepted', r.approver, 'approved request accepted after the last review');
  setState(call.world, r, 'new', call.user!.login, 'all reviews accepted');
}

function reviewMatches(v: Review, call: Call): boolean {
  return REVIEW_BY.filter((k) => param(call, k) !== undefined).every((k) => v.by[k] === param(call, k)) && REVIEW_BY.some((k) => param(call, k) !== undefined);
}

function mayReview(call: Call, v: Review): boolean {
  const u = call.user!;
  if (u.admin) return true;
  if (v.by.by_user) return v.by.by_user === u.login;
  if (v.by.by_project) return canWrite(u, v.by.by_project);
  return false;
}

function list(call: Call): Reply {
  const user = param(call, 'user');
  const project = param(call, 'project');
  const pkgName = param(call, 'package');
  if (param(call, 'view') !== 'collection') {
    return { xml: { directory: { entry: [...requestsOf(call.world).values()].map((r) => ({ '@name': String(r.id) })) } } };
  }
  if (!user && !project && !pkgName && !call.faults.has('collection-without-filter-served')) throw refuse(400, 'require_filter', 'view=collection needs a filter by user, project or package');
  const csv = (name: string) => (param(call, name) ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  let states = csv('states');
  if (call.faults.has('states-filter-ignored')) states = [];
  if (call.faults.has('states-filter-first-only')) states = states.slice(0, 1);
  const types = call.faults.has('types-filter-ignored') ? [] : csv('types');
  const roles = call.faults.has('roles-filter-ignored') ? [] : csv('roles');
  const has = (role: string) => !roles.length || roles.includes(role);
  const matchEnd = (e?: { project?: string; package?: string }) => e?.project === project && (!pkgName || e?.package === pkgName);
  const found = [...requestsOf(call.world).values()].filter((r) => {
    if (states.length && !states.includes(r.state)) return false;
    if (types.length && !r.actions.some((a) => types.includes(a.type))) return false;
    if (user) {
      const u = call.world.users.get(user);
      const by =
        (has('creator') && r.creator === user) ||
        (has('reviewer') && r.reviews.some((v) => v.by.by_user === user || (v.by.by_project && canWrite(u, v.by.by_project)))) ||
        (has('maintainer') && r.actions.some((a) => canWrite(u, a.target?.project ?? ''))) ||
        (has('source') && r.actions.some((a) => canWrite(u, a.source?.project ?? ''))) ||
        (has('target') && r.actions.some((a) => canWrite(u, a.target?.project ?? '')));
      if (!by) return false;
    }
    if (project) {
      const by =
        (has('source') && r.actions.some((a) => matchEnd(a.source))) ||
        ((has('target') || has('maintainer')) && r.actions.some((a) => matchEnd(a.target))) ||
        (has('reviewer') && r.reviews.some((v) => v.by.by_project === project && (!pkgName || v.by.by_package === pkgName)));
      if (!by) return false;
    }
    return true;
  });
  const limit = Number(param(call, 'limit'));
  const shown = Number.isInteger(limit) && limit > 0 && !call.faults.has('request-limit-ignored') ? found.slice(0, limit) : found;
  const withHistory = param(call, 'withhistory') !== undefined || param(call, 'withfullhistory') !== undefined;
  // The variant names each listed request by `number` instead of `id` (docs/open-choices.md).
  const item = (r: BuildRequest) => {
    const { '@id': id, ...rest } = renderRequest(r, withHistory, call.variant) as Record<string, unknown>;
    return call.variant ? { '@number': id, ...rest } : { '@id': id, ...rest };
  };
  return { xml: { collection: { '@matches': String(shown.length), request: shown.map(item) } } };
}

function create(call: Call): Reply {
  const root = rootOf(parseXml(call.body));
  if (root?.name !== 'request') throw refuse(400, 'invalid_request', 'body must be a <request> document');
  const actions = parseActions(root.node);
  if (!actions.length) throw refuse(400, 'invalid_request', 'a request needs at least one action');
  for (const a of actions) {
    if (!a.target?.project) throw refuse(400, 'invalid_request', 'every action needs a target project');
    const t = call.world.projects.get(a.target.project);
    if (!t || t.deleted) throw refuse(404, 'unknown_project', `target project '${a.target.project}' does not exist`);
    if (a.type === 'submit') {
      const src = a.source?.project ? call.world.projects.get(a.source.project)?.packages.get(a.source.package ?? '') : undefined;
      if (!src || src.deleted) throw refuse(404, 'unknown_package', `source package '${a.source?.project}/${a.source?.package}' does not exist`);
    }
  }
  const reviews: Review[] = elements(root.node, 'review').map((v) => ({
    by: Object.fromEntries(REVIEW_BY.filter((k) => attr(v, k)).map((k) => [k, attr(v, k)!])),
    state: 'new',
  }));
  const descriptionNode = elements(root.node, 'description')[0];
  const r: BuildRequest = {
    id: call.world.nextId(),
    creator: call.user!.login,
    state: reviews.length ? 'review' : 'new',
    description: descriptionNode ? text(descriptionNode) : '',
    actions,
    reviews,
    priority: 'moderate',
    history: [],
  };
  log(r, r.creator, 'request created');
  requestsOf(call.world).set(r.id, r);
  return { xml: { request: renderRequest(r, false, call.variant) } };
}

function diffOf(call: Call, r: BuildRequest): string {
  const out: string[] = [];
  const actions = call.faults.has('request-diff-first-action-only') ? r.actions.slice(0, 1) : r.actions;
  for (const a of actions) {
    const tgt = call.world.projects.get(a.target?.project ?? '')?.packages.get(a.target?.package ?? a.source?.package ?? '');
    const src = a.source?.project ? call.world.projects.get(a.source.project)?.packages.get(a.source.package ?? '') : undefined;
    const before = tgt && !tgt.deleted ? tgt.files : new Map<string, string>();
    const srcProject = a.source?.project ? call.world.projects.get(a.source.project) : undefined;
    const after = a.type === 'delete' ? new Map<string, string>() : src && srcProject ? (tryExpand(call.world, srcProject, src) ?? src.files) : new Map<string, string>();
    out.push(`${a.type}: ${a.source?.project ?? ''}/${a.source?.package ?? ''} -> ${a.target?.project ?? ''}/${a.target?.package ?? ''}`);
    for (const name of [...new Set([...before.keys(), ...after.keys()])].sort()) {
      const x = before.get(name);
      const y = after.get(name);
      if (x === y) continue;
      out.push(`--- ${name}`, `+++ ${name}`);
      for (const line of (x ?? '').split('\n').filter(Boolean)) out.push(`-${line}`);
      for (const line of (y ?? '').split('\n').filter(Boolean)) out.push(`+${line}`);
    }
  }
  return out.join('\n') + '\n';
}

function command(call: Call): Reply {
  const r = findRequest(call, call.params.id);
  const cmd = param(call, 'cmd');
  const who = call.user!.login;
  const comment = param(call, 'comment') ?? '';
  switch (cmd) {
    case 'diff':
      return { text: diffOf(call, r), contentType: 'text/plain' };
    case 'changestate': {
      const newstate = param(call, 'newstate');
      if (!newstate) throw refuse(400, 'missing_parameter', 'changestate needs newstate');
      if (!isOpen(r) && newstate !== 'new') throw refuse(403, 'post_request_no_permission', `request ${r.id} is ${r.state}`);
      const mine = r.creator === who;
      if (['revoked', 'superseded'].includes(newstate) ? !mine && !call.user!.admin : !mayDecide(call, r)) throw refuse(403, 'post_request_no_permission', `no permission to set request ${r.id} to ${newstate}`);
      if (newstate === 'accepted' && openReviews(r).length && !call.user!.admin && param(call, 'force') === undefined) throw refuse(403, 'post_request_no_permission', `request ${r.id} has open reviews`);
      setState(call.world, r, call.faults.has('changestate-ignores-newstate') ? 'declined' : newstate, who, comment);
      return ok();
    }
    case 'addreview': {
      const by = Object.fromEntries(REVIEW_BY.filter((k) => param(call, k) !== undefined).map((k) => [k, param(call, k)!])) as Review['by'];
      if (!Object.keys(by).length) throw refuse(400, 'missing_parameter', 'addreview needs by_user, by_group, by_project or by_package');
      if (by.by_package && !by.by_project) throw refuse(400, 'missing_parameter', 'by_package needs by_project');
      if (by.by_user && !call.world.users.has(by.by_user)) throw refuse(404, 'unknown_user', `user '${by.by_user}' does not exist`);
      if (by.by_project && !call.world.projects.get(by.by_project)) throw refuse(404, 'unknown_project', `project '${by.by_project}' does not exist`);
      if (call.faults.has('review-by-package-dropped')) delete by.by_package;
      if (!isOpen(r)) throw refuse(403, 'review_change_state_no_permission', `request ${r.id} is ${r.state}`);
      r.reviews.push({ by, state: 'new' });
      if (r.state === 'new' && !call.faults.has('addreview-keeps-state-new')) r.state = 'review';
      log(r, who, comment || 'review added');
      return ok();
    }
    case 'changereviewstate': {
      const newstate = param(call, 'newstate');
      if (!newstate) throw refuse(400, 'missing_parameter', 'changereviewstate needs newstate');
      const v = r.reviews.find((x) => reviewMatches(x, call));
      if (!v) throw notFound(`request ${r.id} has no such review`);
      if (!mayReview(call, v)) throw refuse(403, 'review_change_state_no_permission', 'no permission to change this review');
      if (!call.faults.has('changereviewstate-ignored')) {
        v.state = newstate;
        v.who = who;
      }
      log(r, who, comment || `review set to ${newstate}`);
      // The variant moves the request on (accepted after the last review of an approved request,
      // new, declined) in the background, shortly after answering (docs/open-choices.md).
      if (call.variant) setTimeout(() => afterReviews(call, r), VARIANT_REQUEST_MS).unref();
      else afterReviews(call, r);
      return ok();
    }
    case 'approve':
      if (r.state !== 'review') throw refuse(400, 'request_not_in_review', `request ${r.id} is not in review`);
      if (!mayDecide(call, r)) throw refuse(403, 'post_request_no_permission', 'no permission to approve');
      r.approver = who;
      log(r, who, 'approved');
      if (call.variant) setTimeout(() => afterReviews(call, r), VARIANT_REQUEST_MS).unref();
      else afterReviews(call, r);
      return ok();
    case 'cancelapproval':
      if (!r.approver) throw refuse(400, 'not_approved', `request ${r.id} is not approved`);
      if (!mayDecide(call, r)) throw refuse(403, 'post_request_no_permission', 'no permission to cancel the approval');
      if (!call.faults.has('cancelapproval-noop')) r.approver = undefined;
      log(r, who, 'approval cancelled');
      return ok();
    case 'setpriority': {
      const priority = param(call, 'priority');
      if (!priority || !['low', 'moderate', 'important', 'critical'].includes(priority)) throw refuse(400, 'invalid_parameter', 'priority must be low, moderate, important or critical');
      if (!mayDecide(call, r) && r.creator !== who) throw refuse(403, 'post_request_no_permission', 'no permission to set the priority');
      if (!call.faults.has('setpriority-ignored')) {
        // The variant sets it in the background, shortly after answering (docs/open-choices.md).
        if (call.variant) setTimeout(() => (r.priority = priority), VARIANT_REQUEST_MS).unref();
        else r.priority = priority;
      }
      return ok();
    }
    case 'setacceptat': {
      if (!mayDecide(call, r) && r.creator !== who) throw refuse(403, 'post_request_no_permission', 'no permission to set the accept time');
      const time = param(call, 'time');
      if (time === undefined && call.faults.has('setacceptat-needs-time')) throw refuse(400, 'missing_parameter', 'setacceptat needs time');
      const when = time === undefined || call.faults.has('setacceptat-ignores-time') ? new Date() : new Date(time);
      if (Number.isNaN(when.getTime())) throw refuse(400, 'invalid_parameter', `time '${time}' is not a time`);
      r.acceptAt = when.toISOString();
      return ok();
    }
    case 'setincident':
    case 'assignreview':
      return ok();
    default:
      throw refuse(400, 'unknown_command', `unknown command '${cmd}'`);
  }
}

export function registerRequests(api: Api): void {
  api.route('GET', '/request', list);
  api.route('POST', '/request', (call) => {
    if (param(call, 'cmd') !== 'create') throw refuse(400, 'unknown_command', `unknown command '${param(call, 'cmd')}'`);
    return create(call);
  });
  api.route('GET', '/request/:id', (call) => ({ xml: { request: renderRequest(findRequest(call, call.params.id), param(call, 'withhistory') !== undefined || param(call, 'withfullhistory') !== undefined, call.variant) } }));
  api.route('POST', '/request/:id', command);
  api.route('PUT', '/request/:id', (call) => {
    const r = findRequest(call, call.params.id);
    if (!call.user!.admin && !call.faults.has('request-put-open-to-all')) throw refuse(403, 'put_request_no_permission', 'only admins may change all parts of a request');
    const root = rootOf(parseXml(call.body));
    if (root?.name !== 'request') throw refuse(400, 'invalid_request', 'body must be a <request> document');
    const actions = parseActions(root.node);
    if (actions.length) r.actions = actions;
    const state = attr(elements(root.node, 'state')[0], 'name');
    if (state) r.state = state;
    const description = elements(root.node, 'description')[0];
    if (description) r.description = text(description);
    const priority = elements(root.node, 'priority')[0];
    if (priority) r.priority = text(priority);
    log(r, call.user!.login, 'request modified');
    return { xml: { request: renderRequest(r, false, call.variant) } };
  });
}
