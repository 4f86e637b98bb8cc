// /staging of build-ref (document: "Staging (beta, unstable)", and the staging lines of "States
// and transitions" and "Errors"). Bodies use the build service's customary forms:
// <workflow managers="group"/>, <workflow><staging_project>NAME</staging_project></workflow>,
// <requests><request id="N"/></requests>, <excluded_requests><request id="N"/></excluded_requests>.
import { attr, buildXml, elements, parseXml, rootOf, text, type XmlNode } from '../../../src/clients/xml.ts';
import { canWrite, notFound, ok, param, refuse, type Api, type Call, type Reply } from '../api.ts';
import { areaState, newProject, type World } from '../world.ts';
import { findRequest, isOpen, openReviews, requestsOf, setState, type BuildRequest } from './requests.ts';

interface Workflow {
  project: string;
  managers?: string;
  stagingProjects: Set<string>;
  /** Excluded request ids with their descriptions. */
  excluded: Map<number, string>;
}

interface StagingProject {
  name: string;
  workflow: string;
  staged: Set<number>;
  history: { event: string; request?: number; when: string }[];
}

interface StagingState {
  workflows: Map<string, Workflow>;
  projects: Map<string, StagingProject>;
}

/** Variant: from the answer to a staging copy or accept to its effect. */
const VARIANT_BACKGROUND_MS = 300;

const stateOf = (world: World) => areaState<StagingState>(world, 'staging', () => ({ workflows: new Map(), projects: new Map() }));
const now = () => new Date().toISOString().replace(/\.\d+Z$/, '');

function workflow(call: Call): Workflow {
  const w = stateOf(call.world).workflows.get(call.params.project);
  if (!w) throw notFound(`project '${call.params.project}' has no staging workflow`);
  return w;
}

function stagingProject(call: Call, w: Workflow, name = call.params.staging_project): StagingProject {
  const sp = stateOf(call.world).projects.get(name);
  if (!sp || sp.workflow !== w.project) throw notFound(`'${name}' is not a staging project of ${w.project}`);
  return sp;
}

function manage(call: Call, project: string): void {
  if (!canWrite(call.user, project)) throw refuse(403, 'staging_workflow_no_permission', `no permission to manage the staging of '${project}'`);
}

function addStagingProject(call: Call, w: Workflow, name: string): StagingProject {
  const world = call.world;
  const existing = world.projects.get(name);
  if (!existing || existing.deleted) world.projects.set(name, newProject(name));
  const sp: StagingProject = { name, workflow: w.project, staged: new Set(), history: [{ event: 'created', when: now() }] };
  stateOf(world).projects.set(name, sp);
  w.stagingProjects.add(name);
  return sp;
}

/** Request ids named by a body of <request id="N"/> elements (also accepts <number>N</number>). */
function bodyIds(call: Call): number[] {
  const doc = parseXml(call.body);
  const ids = [...elements(doc, 'request').map((r) => attr(r, 'id')), ...elements(doc, 'number').map((n) => text(n))].filter(Boolean).map(Number);
  if (!ids.length || ids.some((n) => !Number.isInteger(n))) throw refuse(400, 'invalid_request', 'the body names no request');
  return ids;
}

const stagedAnywhere = (world: World, w: Workflow, id: number) => [...w.stagingProjects].some((n) => stateOf(world).projects.get(n)?.staged.has(id));

function missingReviews(world: World, sp: StagingProject): { request: number; by: Record<string, string> }[] {
  return [...sp.staged].flatMap((id) => {
    const r = requestsOf(world).get(id);
    return r ? openReviews(r).map((v) => ({ request: id, by: v.by as Record<string, string> })) : [];
  });
}

function overallState(world: World, sp: StagingProject): string {
  if (!sp.staged.size) return 'empty';
  const reqs = [...sp.staged].map((id) => requestsOf(world).get(id)).filter((r): r is BuildRequest => r !== undefined);
  if (reqs.some((r) => !isOpen(r))) return 'unacceptable';
  if (missingReviews(world, sp).length) return 'review';
  return 'acceptable';
}

/**
 * A request as the build service's staging views list it (src/api/app/views/staging/shared/
 * _requests.xml.builder): id, type, creator, state, package (of the first target), updated.
 */
function requestItem(r: BuildRequest): XmlNode {
  const first = r.actions[0];
  return {
    '@id': String(r.id),
    '@type': first?.type ?? 'submit',
    '@creator': r.creator,
    '@state': r.state,
    ...(first?.target?.package ?? first?.source?.package ? { '@package': first?.target?.package ?? first?.source?.package } : {}),
    '@updated': r.history.at(-1)?.when ?? new Date().toISOString(),
  };
}

function renderStagingProject(call: Call, sp: StagingProject): XmlNode {
  const world = call.world;
  const out: XmlNode = { '@name': sp.name };
  const wants = (name: string) => param(call, name) !== undefined;
  if (wants('status')) out['@state'] = overallState(world, sp);
  if (wants('requests') && !call.faults.has('staging-show-ignores-requests')) {
    const reqs = [...sp.staged].map((id) => requestsOf(world).get(id)).filter((r): r is BuildRequest => r !== undefined);
    out.staged_requests = { '@count': String(reqs.length), request: reqs.map(requestItem) };
    out.untracked_requests = { '@count': '0' };
    out.obsolete_requests = { '@count': String(reqs.filter((r) => !isOpen(r)).length), request: reqs.filter((r) => !isOpen(r)).map(requestItem) };
    const missing = missingReviews(world, sp);
    out.missing_reviews = { '@count': String(missing.length), review: missing.map((m) => ({ '@request': String(m.request), ...Object.fromEntries(Object.entries(m.by).map(([k, v]) => [`@${k}`, v])) })) };
  }
  if (wants('history')) out.history = { entry: sp.history.map((h) => ({ '@event': h.event, ...(h.request ? { '@request': String(h.request) } : {}), '@when': h.when })) };
  return out;
}

function deleteProject(world: World, name: string): void {
  const p = world.projects.get(name);
  if (p) {
    p.deleted = true;
    for (const k of p.packages.values()) k.deleted = true;
  }
  stateOf(world).projects.delete(name);
}

export function registerStaging(api: Api): void {
  const { world } = api;

  api.route('POST', '/staging/:project/workflow', (call) => {
    const name = call.params.project;
    const p = world.projects.get(name);
    if (!p || p.deleted) throw notFound(`project '${name}' does not exist`);
    manage(call, name);
    const all = stateOf(world).workflows;
    if (all.has(name)) throw refuse(400, 'staging_workflow_exists', `project '${name}' already has a staging workflow`);
    const root = rootOf(parseXml(call.body));
    const w: Workflow = { project: name, managers: root ? attr(root.node, 'managers') : undefined, stagingProjects: new Set(), excluded: new Map() };
    all.set(name, w);
    // Like the build service, a new workflow starts with staging projects A and B.
    for (const letter of ['A', 'B']) addStagingProject(call, w, `${name}:Staging:${letter}`);
    return ok();
  });

  api.route('PUT', '/staging/:project/workflow', (call) => {
    const w = workflow(call);
    manage(call, w.project);
    const root = rootOf(parseXml(call.body));
    if (root?.name !== 'workflow') throw refuse(400, 'invalid_workflow', 'body must be a <workflow> document');
    w.managers = attr(root.node, 'managers') ?? w.managers;
    return ok();
  });

  api.route('DELETE', '/staging/:project/workflow', (call) => {
    const w = workflow(call);
    manage(call, w.project);
    const staging = [...w.stagingProjects];
    // The variant deletes the staging projects 0.3 s after answering (docs/open-choices.md).
    const deleteStaging = () => staging.forEach((n) => deleteProject(world, n));
    if (param(call, 'with_staging_projects') !== undefined && !call.faults.has('workflow-delete-keeps-staging-projects')) {
      if (call.variant) setTimeout(deleteStaging, VARIANT_BACKGROUND_MS).unref();
      else deleteStaging();
    }
    for (const n of staging) stateOf(world).projects.delete(n);
    stateOf(world).workflows.delete(w.project);
    return ok();
  });

  api.route('GET', '/staging/:project/staging_projects', (call) => {
    const w = workflow(call);
    const sps = [...w.stagingProjects].map((n) => stateOf(world).projects.get(n)).filter((sp): sp is StagingProject => sp !== undefined);
    return { xml: { staging_projects: { staging_project: sps.map((sp) => renderStagingProject(call, sp)) } } };
  });

  api.route('GET', '/staging/:project/staging_projects/:staging_project', (call) => ({ xml: { staging_project: renderStagingProject(call, stagingProject(call, workflow(call))) } }));

  api.route('POST', '/staging/:project/staging_projects', (call) => {
    const w = workflow(call);
    manage(call, w.project);
    const names = elements(parseXml(call.body), 'staging_project').map((e) => text(e).trim() || attr(e, 'name') || '').filter(Boolean);
    if (!names.length) throw refuse(400, 'invalid_request', 'the body names no staging project');
    for (const n of names) {
      if (!canWrite(call.user, n)) throw refuse(403, 'create_project_no_permission', `no permission to create '${n}'`);
      if (stateOf(world).projects.has(n)) throw refuse(400, 'staging_project_exists', `'${n}' is already a staging project`);
    }
    for (const n of names) addStagingProject(call, w, n);
    return ok();
  });

  api.route('POST', '/staging/:project/staging_projects/:staging_project/copy/:copy', (call) => {
    const w = workflow(call);
    const sp = stagingProject(call, w);
    manage(call, w.project);
    const name = call.params.copy;
    if (!canWrite(call.user, name)) throw refuse(403, 'create_project_no_permission', `no permission to create '${name}'`);
    if (world.projects.get(name) && !world.projects.get(name)!.deleted) throw refuse(400, 'project_exists', `project '${name}' exists`);
    const source = world.projects.get(sp.name)!;
    const root = rootOf(parseXml(source.meta));
    const meta = root ? buildXml({ [root.name]: { ...root.node, '@name': name } }) : undefined;
    const copy = { ...newProject(name, meta), config: source.config, repositories: structuredClone(source.repositories) };
    if (call.faults.has('staging-copy-noop')) return ok();
    const carryOut = () => {
      world.projects.set(name, copy);
      addStagingProject(call, w, name);
    };
    // The variant copies in the background, shortly after answering.
    if (call.variant) setTimeout(carryOut, VARIANT_BACKGROUND_MS).unref();
    else carryOut();
    return ok();
  });

  api.route('POST', '/staging/:project/staging_projects/:staging_project/accept', (call) => {
    const w = workflow(call);
    const sp = stagingProject(call, w);
    manage(call, w.project);
    const force = param(call, 'force') === '1';
    const state = overallState(world, sp);
    const missing = missingReviews(world, sp).length > 0;
    if (state !== 'acceptable' && state !== 'empty') {
      if (call.faults.has('staging-accept-refused-then-done')) {
        setTimeout(() => {
          for (const id of sp.staged) {
            const r = requestsOf(world).get(id);
            if (r && isOpen(r)) setState(world, r, 'accepted', call.user!.login, `accepted with staging project ${sp.name}`);
          }
        }, VARIANT_BACKGROUND_MS).unref();
        throw refuse(400, 'staging_project_not_acceptable', `staging project '${sp.name}' is not acceptable (${state})`);
      }
      if (!force && !call.faults.has('staging-accept-unchecked')) throw refuse(400, 'staging_project_not_acceptable', `staging project '${sp.name}' is not acceptable (${state})`);
      if (force && missing && !call.faults.has('force-accept-ignores-missing-reviews')) throw refuse(400, 'staging_project_not_acceptable', `staging project '${sp.name}' has missing reviews; it cannot be forced`);
    }
    const carryOut = () => {
      for (const id of sp.staged) {
        const r = requestsOf(world).get(id);
        if (r && isOpen(r)) setState(world, r, 'accepted', call.user!.login, `accepted with staging project ${sp.name}`);
      }
      if (!call.faults.has('accept-keeps-staged-requests')) sp.staged.clear();
      sp.history.push({ event: 'accepted', when: now() });
    };
    // The variant accepts in the background, shortly after answering.
    if (call.variant) setTimeout(carryOut, VARIANT_BACKGROUND_MS).unref();
    else carryOut();
    return ok();
  });

  api.route('GET', '/staging/:project/backlog', (call) => {
    const w = workflow(call);
    const backlog = [...requestsOf(world).values()].filter(
      (r) =>
        isOpen(r) &&
        r.actions.some((a) => a.target?.project === w.project) &&
        (!stagedAnywhere(world, w, r.id) || call.faults.has('backlog-includes-staged')) &&
        (!w.excluded.has(r.id) || call.faults.has('backlog-includes-excluded')),
    );
    return { xml: { backlog: { request: backlog.map(requestItem) } } };
  });

  api.route('GET', '/staging/:project/excluded_requests', (call) => {
    const w = workflow(call);
    return { xml: { excluded_requests: { request: [...w.excluded].map(([id, description]) => ({ '@id': String(id), '@description': description })) } } };
  });

  api.route('POST', '/staging/:project/excluded_requests', (call) => {
    const w = workflow(call);
    manage(call, w.project);
    const doc = parseXml(call.body);
    for (const id of bodyIds(call)) {
      const r = findRequest(call, id);
      if (!r.actions.some((a) => a.target?.project === w.project)) throw refuse(400, 'invalid_request', `request ${id} does not target ${w.project}`);
      if (stagedAnywhere(world, w, id)) throw refuse(400, 'invalid_request', `request ${id} is staged`);
      const el = elements(doc, 'request').find((e) => attr(e, 'id') === String(id));
      w.excluded.set(id, attr(el, 'description') ?? '');
    }
    return ok();
  });

  api.route('DELETE', '/staging/:project/excluded_requests', (call) => {
    const w = workflow(call);
    manage(call, w.project);
    if (!call.faults.has('exclusion-delete-noop')) for (const id of bodyIds(call)) w.excluded.delete(id);
    return ok();
  });

  api.route('GET', '/staging/:project/staging_projects/:staging_project/staged_requests', (call) => {
    const sp = stagingProject(call, workflow(call));
    return { xml: { staged_requests: { request: [...sp.staged].map((id) => requestsOf(world).get(id)).map((r, i) => (r ? requestItem(r) : { '@id': String([...sp.staged][i]) })) } } };
  });

  api.route('POST', '/staging/:project/staging_projects/:staging_project/staged_requests', (call) => {
    const w = workflow(call);
    const sp = stagingProject(call, w);
    manage(call, w.project);
    const removeExclusion = param(call, 'remove_exclusion') !== undefined && !call.faults.has('remove-exclusion-ignored');
    const ids = bodyIds(call);
    for (const id of ids) {
      const r = findRequest(call, id);
      if (!isOpen(r)) throw refuse(400, 'invalid_request', `request ${id} is ${r.state}`);
      if (!r.actions.some((a) => a.target?.project === w.project)) throw refuse(400, 'invalid_request', `request ${id} does not target ${w.project}`);
      if (w.excluded.has(id) && !removeExclusion && !call.faults.has('remove-exclusion-ignored')) throw refuse(400, 'invalid_request', `request ${id} is excluded; use remove_exclusion`);
      if (stagedAnywhere(world, w, id)) throw refuse(400, 'invalid_request', `request ${id} is already staged`);
    }
    const carryOut = () => {
      for (const id of ids) {
        if (removeExclusion) w.excluded.delete(id);
        sp.staged.add(id);
        sp.history.push({ event: 'staged', request: id, when: now() });
      }
    };
    // The variant stages in the background, shortly after answering.
    if (call.variant) setTimeout(carryOut, VARIANT_BACKGROUND_MS).unref();
    else carryOut();
    return ok();
  });

  api.route('DELETE', '/staging/:project/staged_requests', (call) => {
    const w = workflow(call);
    manage(call, w.project);
    const ids = bodyIds(call);
    if (!call.faults.has('unstage-noop')) {
      for (const n of w.stagingProjects) {
        const sp = stateOf(world).projects.get(n);
        for (const id of ids) if (sp?.staged.delete(id)) sp.history.push({ event: 'unstaged', request: id, when: now() });
      }
    }
    return ok();
  });
}
