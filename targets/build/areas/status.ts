// /statistics, /status/messages and /status_reports of build-ref (document: "Statistics and
// status messages", "Status checks (beta, unstable)"). Who holds the permissions the document
// mentions is not shown; here admins and privileged users do.
import { attr, elements, parseXml, rootOf, text } from '../../../src/clients/xml.ts';
import { canWrite, notFound, ok, param, refuse, type Api, type Call, type Reply } from '../api.ts';
import { areaState, type World } from '../world.ts';
import { findRequest } from './requests.ts';

interface StatusMessage {
  id: number;
  message: string;
  severity: string;
  user: string;
  createdAt: string;
}

interface CheckData {
  name: string;
  state: string;
  url?: string;
  shortDescription?: string;
}

interface StatusState {
  messages: Map<number, StatusMessage>;
  /** Status reports keyed by `requests/<id>` or `published/<project>/<repository>/<build_id>`. */
  reports: Map<string, Map<string, CheckData>>;
  /** Required checks keyed by `projects/<project>`, `repositories/<p>/<r>`, `built_repositories/<p>/<r>/<arch>`. */
  required: Map<string, Set<string>>;
}

const stateOf = (world: World) => areaState<StatusState>(world, 'status', () => ({ messages: new Map(), reports: new Map(), required: new Map() }));

function permitted(call: Call): void {
  if (!call.user?.admin && !call.user?.privileged) throw refuse(403, 'no_permission', 'this operation needs permission');
}

/** How long after answering the variant carries out a status report PUT, a required check's POST or DELETE and a status message's DELETE (docs/open-choices.md). */
const VARIANT_STATUS_MS = 300;

function limitOf(call: Call, fallback: number): number {
  const n = Number(param(call, 'limit'));
  return Number.isInteger(n) && n > 0 ? n : fallback;
}

/** A status message; the variant names its id `msg_id`, as the build service writes it (the document says only "id"). */
function renderMessage(m: StatusMessage, variant: boolean) {
  return { [variant ? '@msg_id' : '@id']: String(m.id), message: m.message, user: m.user, severity: m.severity, created_at: m.createdAt };
}

function parseChecks(call: Call): CheckData[] {
  const doc = parseXml(call.body);
  const checks = elements(doc, 'check').map((c) => {
    const child = (n: string) => {
      const el = elements(c, n)[0];
      return el ? text(el).trim() : undefined;
    };
    return { name: attr(c, 'name') ?? child('name') ?? '', state: child('state') ?? attr(c, 'state') ?? 'pending', url: child('url'), shortDescription: child('short_description') };
  });
  if (!checks.length || checks.some((c) => !c.name)) throw refuse(400, 'invalid_check', 'the body must hold <check name="..."> data');
  return checks;
}

function reportReply(key: string, world: World): Reply {
  const checks = [...(stateOf(world).reports.get(key)?.values() ?? [])];
  return {
    xml: {
      status_report: {
        check: checks.map((c) => ({ '@name': c.name, state: c.state, ...(c.url ? { url: c.url } : {}), ...(c.shortDescription ? { short_description: c.shortDescription } : {}) })),
      },
    },
  };
}

function putReport(call: Call, key: string): Reply {
  const all = stateOf(call.world).reports;
  if (!all.has(key)) all.set(key, new Map());
  const report = all.get(key)!;
  const checks = parseChecks(call);
  const store = () => {
    for (const c of checks) {
      if (call.faults.has('status-report-put-duplicates') && report.has(c.name)) report.set(`${c.name}\u0000${report.size}`, c);
      else if (!(call.faults.has('status-report-put-keeps-state') && report.has(c.name))) report.set(c.name, c);
    }
  };
  // The variant stores the check data 0.3 s after answering (docs/open-choices.md).
  if (call.variant) setTimeout(store, VARIANT_STATUS_MS).unref();
  else store();
  return ok();
}

export function registerStatus(api: Api): void {
  const { world } = api;

  // ---- statistics ----
  const packages = () =>
    [...world.projects.values()]
      .filter((p) => !p.deleted)
      .flatMap((p) => [...p.packages.values()].filter((k) => !k.deleted).map((k) => ({ project: p.name, pkg: k, created: k.revisions[0]?.time ?? 0, updated: k.revisions.at(-1)?.time ?? 0 })));
  const limited = <T>(call: Call, list: T[]) => (call.faults.has('statistics-limit-ignored') ? list : list.slice(0, limitOf(call, 10)));
  const iso = (t: number) => new Date(t * 1000).toISOString();

  api.route('GET', '/statistics/latest_added', (call) => ({
    xml: { latest_added: { package: limited(call, packages().sort((a, b) => b.created - a.created)).map((e) => ({ '@name': e.pkg.name, '@project': e.project, '@created': iso(e.created) })) } },
  }));
  api.route('GET', '/statistics/latest_updated', (call) => ({
    xml: { latest_updated: { package: limited(call, packages().sort((a, b) => b.updated - a.updated)).map((e) => ({ '@name': e.pkg.name, '@project': e.project, '@updated': iso(e.updated) })) } },
  }));
  api.route('GET', '/statistics/most_active_projects', (call) => {
    const projects = [...world.projects.values()].filter((p) => !p.deleted).map((p) => ({ name: p.name, updates: [...p.packages.values()].reduce((n, k) => n + k.revisions.length, 0), packages: p.packages.size }));
    return { xml: { most_active: { project: limited(call, projects.sort((a, b) => b.updates - a.updates)).map((p) => ({ '@name': p.name, '@packages': String(p.packages), '@update_count': String(p.updates) })) } } };
  });
  api.route('GET', '/statistics/most_active_packages', (call) => ({
    xml: { most_active: { package: limited(call, packages().sort((a, b) => b.pkg.revisions.length - a.pkg.revisions.length)).map((e) => ({ '@name': e.pkg.name, '@project': e.project, '@update_count': String(e.pkg.revisions.length) })) } },
  }));
  const onePackage = (call: Call) => {
    const k = world.projects.get(call.params.project)?.packages.get(call.params.package);
    if (!k || k.deleted) throw notFound(`package '${call.params.project}/${call.params.package}' does not exist`);
    return k;
  };
  api.route('GET', '/statistics/added_timestamp/:project/:package', (call) => ({
    // The build service's views (src/api/app/views/statistics/added_timestamp.xml.builder): <latest_added><package name project created/>.
    xml: { latest_added: { package: { '@name': call.params.package, '@project': call.params.project, '@created': iso(onePackage(call).revisions[0]?.time ?? 0) } } },
  }));
  api.route('GET', '/statistics/updated_timestamp/:project/:package', (call) => ({
    // updated_timestamp.xml.builder: <latest_updated><package name project updated/>.
    xml: { latest_updated: { package: { '@name': call.params.package, '@project': call.params.project, '@updated': iso(onePackage(call).revisions.at(-1)?.time ?? 0) } } },
  }));
  api.route('GET', '/statistics/activity/:project/:package', (call) => {
    const k = onePackage(call);
    // activity.xml.builder: <activity><package name project activity/> (percent).
    return { xml: { activity: { package: { '@name': call.params.package, '@project': call.params.project, '@activity': String(Math.min(100, k.revisions.length * 10)) } } } };
  });
  api.route('PUT', '/statistics/redirect_stats', (call) => {
    if (!call.faults.has('redirect-stats-open-to-all')) permitted(call);
    return ok();
  });

  // ---- status messages ----
  api.route('GET', '/status/messages/', (call) => {
    const all = [...stateOf(world).messages.values()].sort((a, b) => b.id - a.id);
    const shown = call.faults.has('status-messages-limit-ignored') ? all : all.slice(0, limitOf(call, all.length || 1));
    return { xml: { status_messages: { '@count': String(shown.length), status_message: shown.map((m) => renderMessage(m, call.variant)) } } };
  });
  api.route('GET', '/status/messages/:id', (call) => {
    const m = stateOf(world).messages.get(Number(call.params.id));
    if (!m) throw notFound(`status message ${call.params.id} does not exist`);
    return { xml: { status_message: renderMessage(m, call.variant) } };
  });
  api.route('POST', '/status/messages/', (call) => {
    // status-messages-refused-but-posted: the refusal is answered after the message is stored.
    const refusedButPosted = call.faults.has('status-messages-refused-but-posted') && !call.user?.admin && !call.user?.privileged;
    if (!call.faults.has('status-messages-open-to-all') && !refusedButPosted) permitted(call);
    const root = rootOf(parseXml(call.body));
    if (!root) throw refuse(400, 'invalid_message', 'the body must be a status message document');
    const el = root.name === 'message' ? root.node : elements(root.node, 'message')[0];
    const message = el ? text(el).trim() : '';
    if (!message) throw refuse(400, 'invalid_message', 'the status message has no text');
    const severityEl = elements(root.node, 'severity')[0];
    const m: StatusMessage = {
      id: world.nextId(),
      message,
      severity: (severityEl ? text(severityEl).trim() : attr(el, 'severity')) || 'information',
      user: call.user!.login,
      createdAt: new Date().toISOString(),
    };
    stateOf(world).messages.set(m.id, m);
    if (refusedButPosted) permitted(call);
    return { xml: { status_message: renderMessage(m, call.variant) } };
  });
  api.route('DELETE', '/status/messages/:id', (call) => {
    // status-message-delete-refused-but-done: the refusal is answered after the message is removed.
    if (call.faults.has('status-message-delete-refused-but-done') && !call.user?.admin && !call.user?.privileged) stateOf(world).messages.delete(Number(call.params.id));
    if (!call.faults.has('status-message-delete-open-to-all')) permitted(call);
    const messages = stateOf(world).messages;
    if (!messages.has(Number(call.params.id))) throw notFound(`status message ${call.params.id} does not exist`);
    if (call.variant) setTimeout(() => messages.delete(Number(call.params.id)), VARIANT_STATUS_MS).unref();
    else messages.delete(Number(call.params.id));
    return ok();
  });

  // ---- status reports ----
  api.route('GET', '/status_reports/requests/:request/reports', (call) => {
    findRequest(call, call.params.request);
    return reportReply(`requests/${call.params.request}`, world);
  });
  api.route('PUT', '/status_reports/requests/:request/reports', (call) => {
    const r = findRequest(call, call.params.request);
    if (!call.user!.admin && !r.actions.some((a) => canWrite(call.user, a.target?.project ?? ''))) throw refuse(403, 'no_permission', 'no permission to report on this request');
    if (call.faults.has('status-report-put-ignored')) return ok();
    return putReport(call, `requests/${r.id}`);
  });
  const publishedKey = (call: Call) => `published/${call.params.project}/${call.params.repository}/${call.params.build_id}`;
  api.route('GET', '/status_reports/published/:project/:repository/reports/:build_id', (call) => reportReply(publishedKey(call), world));
  api.route('PUT', '/status_reports/published/:project/:repository/reports/:build_id', (call) => {
    if (!canWrite(call.user, call.params.project)) throw refuse(403, 'no_permission', `no permission to report on '${call.params.project}'`);
    return putReport(call, publishedKey(call));
  });

  // ---- required checks ----
  const scopes: [string, (c: Call) => string][] = [
    ['projects/:project', (c) => `projects/${c.params.project}`],
    ['repositories/:project/:repository', (c) => `repositories/${c.params.project}/${c.params.repository}`],
    ['built_repositories/:project/:repository/:arch', (c) => `built_repositories/${c.params.project}/${c.params.repository}/${c.params.arch}`],
  ];
  for (const [path, keyOf] of scopes) {
    const existing = (call: Call) => {
      const p = world.projects.get(call.params.project);
      if (!p || p.deleted) throw notFound(`project '${call.params.project}' does not exist`);
    };
    api.route('GET', `/status_reports/${path}/required_checks`, (call) => {
      existing(call);
      return { xml: { required_checks: { name: [...(stateOf(world).required.get(keyOf(call)) ?? [])] } } };
    });
    api.route('POST', `/status_reports/${path}/required_checks/:check`, (call) => {
      existing(call);
      if (!canWrite(call.user, call.params.project)) throw refuse(403, 'no_permission', `no permission to change the required checks of '${call.params.project}'`);
      const all = stateOf(world).required;
      if (!all.has(keyOf(call))) all.set(keyOf(call), new Set());
      const add = () => all.get(keyOf(call))!.add(call.params.check);
      if (call.variant) setTimeout(add, VARIANT_STATUS_MS).unref();
      else add();
      return ok();
    });
    api.route('DELETE', `/status_reports/${path}/required_checks/:check`, (call) => {
      existing(call);
      if (!canWrite(call.user, call.params.project)) throw refuse(403, 'no_permission', `no permission to change the required checks of '${call.params.project}'`);
      const remove = () => stateOf(world).required.get(keyOf(call))?.delete(call.params.check);
      if (call.faults.has('required-check-delete-noop')) return ok();
      if (call.variant) setTimeout(remove, VARIANT_STATUS_MS).unref();
      else remove();
      return ok();
    });
  }
}
