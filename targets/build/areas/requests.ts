// /request: requests of build-ref (document: "Requests", and the request rows of "States and
// transitions"): create, show, list with filters and `limit`, changestate, reviews, approval.
import { attr, elements, parseXml, rootOf, type XmlNode } from '../../../src/clients/xml.ts';
import { canWrite, notFound, ok, param, refuse, type Api, type Call, type Reply } from '../api.ts';
import { areaState, type World } from '../world.ts';

interface Review {
  state: string;
  by: Record<string, string>;
}

export interface Request {
  id: number;
  creator: string;
  actions: { type: string; source?: Record<string, string>; target?: Record<string, string> }[];
  state: string;
  description: string;
  reviews: Review[];
  approver?: string;
  priority: string;
  acceptAt?: string;
  history: { state: string; who: string; when: string; comment: string }[];
}

const BY = ['by_user', 'by_group', 'by_project', 'by_package'] as const;

function requests(world: World): Map<number, Request> {
  return areaState(world, 'requests', () => new Map<number, Request>());
}

/** Every request, in creation order (for /request and /search/request). */
export function listRequests(world: World): Request[] {
  return [...requests(world).values()];
}

/** A request as its XML element tree. */
export function requestView(r: Request): XmlNode {
  return view(r);
}

function view(r: Request): XmlNode {
  return {
    '@id': String(r.id),
    '@creator': r.creator,
    action: r.actions.map((a) => ({ '@type': a.type, ...(a.source ? { source: attrs(a.source) } : {}), ...(a.target ? { target: attrs(a.target) } : {}) })),
    state: { '@name': r.state, '@who': r.history.at(-1)?.who ?? r.creator, '@when': r.history.at(-1)?.when ?? '' },
    review: r.reviews.map((v) => ({ '@state': v.state, ...attrs(v.by) })),
    priority: r.priority,
    ...(r.acceptAt ? { accept_at: r.acceptAt } : {}),
    description: r.description,
  };
}

const attrs = (o: Record<string, string>) => Object.fromEntries(Object.entries(o).map(([k, v]) => [`@${k}`, v]));

function byOf(call: Call): Record<string, string> {
  const by: Record<string, string> = {};
  for (const k of BY) {
    const v = param(call, k);
    if (v) by[k] = v;
  }
  return by;
}

function setState(r: Request, state: string, who: string, comment = ''): void {
  r.state = state;
  r.history.push({ state, who, when: new Date().toISOString().slice(0, 19), comment });
}

/** After a review changed: all accepted -> accepted when approved, otherwise back to new. */
function afterReview(call: Call, r: Request, who: string): void {
  if (r.reviews.some((v) => v.state !== 'accepted')) return;
  const approved = r.approver !== undefined && !call.faults.has('approval-ignored');
  setState(r, approved ? 'accepted' : 'new', who, approved ? 'accepted after the last review (approved)' : 'all reviews accepted');
}

function find(call: Call): Request {
  const r = requests(call.world).get(Number(call.params.id));
  if (!r) throw notFound(`request ${call.params.id} does not exist`);
  return r;
}

function matches(call: Call, r: Request): boolean {
  const states = param(call, 'states')?.split(',').filter(Boolean);
  if (states?.length && !states.includes(r.state) && !call.faults.has('states-filter-ignored')) return false;
  const types = param(call, 'types')?.split(',').filter(Boolean);
  if (types?.length && !r.actions.some((a) => types.includes(a.type))) return false;
  const project = param(call, 'project');
  if (project && !r.actions.some((a) => a.source?.project === project || a.target?.project === project)) return false;
  const pkg = param(call, 'package');
  if (pkg && !r.actions.some((a) => a.source?.package === pkg || a.target?.package === pkg)) return false;
  const user = param(call, 'user');
  if (user && r.creator !== user && !r.reviews.some((v) => v.by.by_user === user)) return false;
  return true;
}

export function registerRequests(api: Api): void {
  api.route('GET', '/request', (call): Reply => {
    const filtered = ['user', 'project', 'package'].some((k) => param(call, k) !== undefined);
    if (param(call, 'view') === 'collection' && !filtered && !call.faults.has('collection-unfiltered-accepted')) {
      throw refuse(400, 'require_filter', 'view=collection needs a filter by user, project or package');
    }
    let list = [...requests(call.world).values()].filter((r) => matches(call, r));
    const limit = param(call, 'limit');
    if (limit !== undefined && !call.faults.has('request-limit-ignored')) list = list.slice(0, Math.max(0, Number(limit)));
    return { xml: { collection: { '@matches': String(list.length), request: list.map(view) } } };
  });

  api.route('GET', '/request/:id', (call) => ({ xml: { request: view(find(call)) } }));

  api.route('POST', '/request', (call) => {
    if (param(call, 'cmd') !== 'create') throw refuse(400, 'unknown_command', `unknown command '${param(call, 'cmd')}'`);
    const root = rootOf(parseXml(call.body));
    if (root?.name !== 'request') throw refuse(400, 'invalid_request', 'body must be a <request> document');
    const actions = elements(root.node, 'action').map((a) => {
      const source = elements(a, 'source')[0];
      const target = elements(a, 'target')[0];
      const pick = (n?: XmlNode) => (n ? Object.fromEntries(['project', 'package'].filter((k) => attr(n, k)).map((k) => [k, attr(n, k)!])) : undefined);
      return { type: attr(a, 'type') ?? 'submit', source: pick(source), target: pick(target) };
    });
    if (!actions.length) throw refuse(400, 'invalid_request', 'a request needs at least one action');
    for (const a of actions) {
      const t = a.target?.project;
      if (t && !call.world.projects.get(t)) throw refuse(404, 'unknown_project', `target project '${t}' does not exist`);
    }
    const reviews = elements(root.node, 'review').map((v) => ({ state: 'new', by: Object.fromEntries(BY.filter((k) => attr(v, k)).map((k) => [k, attr(v, k)!])) }));
    const description = elements(root.node, 'description')[0];
    const r: Request = {
      id: call.world.nextId(),
      creator: call.user!.login,
      actions,
      state: 'new',
      description: description ? String(description['#text'] ?? '') : '',
      reviews,
      priority: 'moderate',
      history: [],
    };
    setState(r, reviews.length ? 'review' : 'new', r.creator, 'created');
    if (!call.faults.has('request-not-stored')) requests(call.world).set(r.id, r);
    return { xml: { request: view(r) } };
  });

  api.route('PUT', '/request/:id', (call) => {
    const r = find(call);
    // "only admins may change all parts": others may change the description.
    if (!call.user?.admin) throw refuse(403, 'no_permission', 'only admins may change all parts of a request');
    const root = rootOf(parseXml(call.body));
    const description = root ? elements(root.node, 'description')[0] : undefined;
    if (description) r.description = String(description['#text'] ?? '');
    return { xml: { request: view(r) } };
  });

  api.route('POST', '/request/:id', (call): Reply => {
    const r = find(call);
    const who = call.user!.login;
    const cmd = param(call, 'cmd');
    const comment = param(call, 'comment') ?? '';
    const mayManage = r.creator === who || call.user!.admin || r.actions.some((a) => a.target?.project && canWrite(call.user, a.target.project));
    switch (cmd) {
      case 'changestate': {
        const newstate = param(call, 'newstate');
        if (!newstate) throw refuse(400, 'missing_parameter', 'changestate needs newstate');
        if (!mayManage) throw refuse(403, 'no_permission', 'no permission to change the state of this request');
        setState(r, call.faults.has('changestate-ignores-newstate') ? r.state : newstate, who, comment);
        break;
      }
      case 'addreview': {
        const by = byOf(call);
        if (!Object.keys(by).length) throw refuse(400, 'missing_parameter', 'addreview needs by_user, by_group, by_project or by_package');
        r.reviews.push({ state: 'new', by });
        if (r.state === 'new') setState(r, 'review', who, comment);
        break;
      }
      case 'changereviewstate': {
        const newstate = param(call, 'newstate');
        const by = byOf(call);
        const review = r.reviews.find((v) => Object.entries(by).every(([k, val]) => v.by[k] === val) && Object.keys(by).length);
        if (!newstate || !review) throw refuse(400, 'review_not_found', 'changereviewstate needs newstate and a by_ parameter naming a review');
        review.state = newstate;
        if (newstate === 'declined') setState(r, 'declined', who, comment);
        else afterReview(call, r, who);
        break;
      }
      case 'approve':
        if (r.state !== 'review') throw refuse(400, 'request_not_in_review', 'only a request in review can be approved');
        r.approver = who;
        break;
      case 'cancelapproval':
        if (!call.faults.has('cancelapproval-noop')) r.approver = undefined;
        break;
      case 'setpriority': {
        const priority = param(call, 'priority');
        if (!priority) throw refuse(400, 'missing_parameter', 'setpriority needs priority');
        r.priority = priority;
        break;
      }
      case 'setacceptat':
        r.acceptAt = param(call, 'time') ?? new Date().toISOString().slice(0, 19);
        break;
      default:
        throw refuse(400, 'unknown_command', `unknown command '${cmd}'`);
    }
    // The reply layout is "not shown"; the service's customary status reply is what osc reads.
    return ok();
  });
}
