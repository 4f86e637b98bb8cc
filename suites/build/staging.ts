// Section "Staging (beta, unstable)" of build-service-api.md, with the staging lines of "States
// and transitions" and "Errors". Each check creates a staging workflow on its own scratch
// project, a staging project of its own in it, and requests targeting the scratch project.
import { check, type BuildCheckContext } from '../../src/core/check.ts';
import type { BuildResponse } from '../../src/clients/build/session.ts';
import { attr, elements, rootOf, text } from '../../src/clients/xml.ts';
import { brief, deleteProject, expectNot2xx, expectServed, isAck, rereadUntil, routeServed, served, withScratchProject, xmlValues, type Scratch } from './support.ts';
import { requestIds, scratchSubmit, setupReview, setupReviewState, showRequest, waitForState } from './request-helpers.ts';

const section = 'Staging (beta, unstable)';
const file = 'build-service-api.md';

interface StagingScratch extends Scratch {
  /** The staging project the check created in the workflow of the scratch project. */
  staging: string;
  /** /staging/<scratch project> */
  base: string;
  stage(id: string): Promise<void>;
  exclude(id: string): Promise<void>;
  backlog(): Promise<string[]>;
  excluded(): Promise<string[]>;
  staged(): Promise<string[]>;
}

const requestsBody = (id: string) => `<requests><request id="${id}"/></requests>`;

async function excludeRequest(caller: Scratch['caller'], base: string, id: string): Promise<void> {
  expectServed(await caller.post(`${base}/excluded_requests`, { body: `<excluded_requests><request id="${id}" description="excluded by a conformance check"/></excluded_requests>` }), `POST ${base}/excluded_requests (request ${id})`);
}

/** A staging workflow on a scratch project with one staging project of the check's own; all deleted afterwards. */
async function withStaging(ctx: BuildCheckContext, body: (s: StagingScratch) => Promise<void>): Promise<void> {
  await withScratchProject(ctx, async (scratch) => {
    const { caller, project } = scratch;
    const base = `/staging/${project}`;
    const staging = `${project}:Staging:C`;
    await ctx.setup(`create a staging workflow on ${project}`, async () => expectServed(await caller.post(`${base}/workflow`, { body: '<workflow/>' }), `POST ${base}/workflow`));
    try {
      await ctx.setup(`create the staging project ${staging}`, async () =>
        expectServed(await caller.post(`${base}/staging_projects`, { body: `<workflow><staging_project>${staging}</staging_project></workflow>` }), `POST ${base}/staging_projects (creating ${staging})`),
      );
      // A create answered 2xx has not been seen to create anything: the staging project is a project, read back.
      await ctx.setup(`read back the staging project ${staging}`, async () => {
        const meta = expectServed(await caller.get(`/source/${staging}/_meta`), `GET /source/${staging}/_meta (a staging project is a project)`);
        ctx.expect(xmlValues(meta).has(staging) && !isAck(meta), `GET /source/${staging}/_meta does not name the staging project ${staging} just created: ${brief(meta)}`);
      }, { seeAlso: 'build.staging.workflow-delete-with-staging-projects' });
      const ids = async (path: string) => requestIds(expectServed(await caller.get(path), `GET ${path}`));
      await body({
        ...scratch,
        staging,
        base,
        // Staging may land in the background: the request is read back as staged (what is left of
        // ctx.timeouts.backgroundMs) before a check relies on it.
        stage: (id) =>
          ctx.setup(`stage request ${id} in ${staging}`, async () => {
            const path = `${base}/staging_projects/${staging}/staged_requests`;
            expectServed(await caller.post(path, { body: requestsBody(id) }), `POST ${path} (request ${id})`);
            const shown = await rereadUntil(ctx, () => ids(path), (v) => v.includes(id));
            ctx.expect(shown.includes(id), `GET ${path}: request ${id} just staged is not listed ([${shown.join(', ')}])`);
          }, {
            seeAlso: 'build.staging.show-requests',
          }),
        exclude: (id) => ctx.setup(`exclude request ${id}`, () => excludeRequest(caller, base, id), { seeAlso: 'build.staging.excluded-requests' }),
        backlog: () => ids(`${base}/backlog`),
        excluded: () => ids(`${base}/excluded_requests`),
        staged: () => ids(`${base}/staging_projects/${staging}/staged_requests`),
      });
    } finally {
      await caller.delete(`${base}/workflow`, { query: { with_staging_projects: 1 } }).catch(() => undefined);
      await deleteProject(caller, staging);
    }
  });
}

/** The overall state of a staging project as shown with `status` (attribute or element `state`). */
function stagingState(res: BuildResponse): string | undefined {
  const root = rootOf(res.xml);
  const fromAttr = attr(root?.node, 'state');
  if (fromAttr) return fromAttr;
  const el = elements(root?.node, 'state')[0];
  return el ? attr(el, 'name') ?? text(el).trim() : undefined;
}

export const workflowDeleteWithStagingProjects = check(
  {
    id: 'build.staging.workflow-delete-with-staging-projects',
    title: 'DELETE of a staging workflow with with_staging_projects also deletes its staging projects',
    protocol: 'build',
    section,
    level: 'MUST',
    spec: { file, line: 152, quote: '`with_staging_projects` also deletes the staging projects' },
    touches: ['DELETE /source/{project}', 'DELETE /staging/{project}/workflow', 'GET /source/{project}/_meta', 'GET /staging/{project}/staging_projects', 'POST /staging/{project}/staging_projects', 'POST /staging/{project}/workflow', 'PUT /source/{project}/_meta'],
    faults: ['workflow-delete-keeps-staging-projects'],
    reliesOn: ['build.projects.meta-put-creates'],
    tags: ['destructive'],
  },
  async (ctx) => {
    await withStaging(ctx, async ({ caller, base, staging }) => {
      const listed = elements(expectServed(await caller.get(`${base}/staging_projects`), `GET ${base}/staging_projects`).xml, 'staging_project').map((e) => attr(e, 'name') ?? text(e).trim());
      ctx.expect(listed.includes(staging), `GET ${base}/staging_projects: the staging project ${staging} just created is not listed ([${listed.join(', ')}])`);
      await ctx.setup(`read the project ${staging}`, async () => expectServed(await caller.get(`/source/${staging}/_meta`), `GET /source/${staging}/_meta (a staging project is a project)`));
      expectServed(await caller.delete(`${base}/workflow`, { query: { with_staging_projects: 1 } }), `DELETE ${base}/workflow?with_staging_projects=1`);
      // The deletion may land in the background: re-read until the project is gone, or what is
      // left of ctx.timeouts.backgroundMs is spent (rubric 6).
      const after = await rereadUntil(ctx, () => caller.get(`/source/${staging}/_meta`), (r) => r.status < 200 || r.status > 299);
      expectNot2xx(after, `GET /source/${staging}/_meta after the workflow was deleted with with_staging_projects`);
    });
  },
);

export const showWithRequests = check(
  {
    id: 'build.staging.show-requests',
    title: 'GET of a staging project with requests lists its staged requests',
    protocol: 'build',
    section,
    level: 'MUST',
    spec: { file, line: 153, quote: 'with `requests`, `status`, `history` (each adds staged/untracked/obsolete requests and missing reviews' },
    touches: ['DELETE /source/{project}', 'DELETE /staging/{project}/workflow', 'GET /source/{project}/_meta', 'GET /staging/{project}/staging_projects/{staging_project}', 'GET /staging/{project}/staging_projects/{staging_project}/staged_requests', 'POST /request', 'POST /staging/{project}/staging_projects', 'POST /staging/{project}/staging_projects/{staging_project}/staged_requests', 'POST /staging/{project}/workflow', 'PUT /source/{project}/_meta', 'PUT /source/{project}/{package}/_meta', 'PUT /source/{project}/{package}/{filename}'],
    faults: ['staging-show-ignores-requests'],
    reliesOn: ['build.projects.meta-put-creates', 'build.staging.workflow-delete-with-staging-projects'],
    tags: ['destructive'],
  },
  async (ctx) => {
    await withStaging(ctx, async (s) => {
      const id = await scratchSubmit(s, 'staged');
      await s.stage(id);
      const path = `${s.base}/staging_projects/${s.staging}`;
      const shown = await rereadUntil(ctx, async () => requestIds(expectServed(await s.caller.get(path, { query: { requests: 1 } }), `GET ${path}?requests=1`)), (v) => v.includes(id));
      ctx.expect(shown.includes(id), `GET ${path}?requests=1: the staged request ${id} is not shown ([${shown.join(', ')}])`);
    });
  },
);

export const backlog = check(
  {
    id: 'build.staging.backlog',
    title: 'The backlog lists requests neither staged nor excluded, and only those',
    protocol: 'build',
    section,
    level: 'MUST',
    spec: { file, line: 155, quote: 'backlog: requests not in any staging project and not excluded' },
    touches: ['DELETE /source/{project}', 'DELETE /staging/{project}/workflow', 'GET /source/{project}/_meta', 'GET /staging/{project}/backlog', 'GET /staging/{project}/staging_projects/{staging_project}/staged_requests', 'POST /request', 'POST /staging/{project}/excluded_requests', 'POST /staging/{project}/staging_projects', 'POST /staging/{project}/staging_projects/{staging_project}/staged_requests', 'POST /staging/{project}/workflow', 'PUT /source/{project}/_meta', 'PUT /source/{project}/{package}/_meta', 'PUT /source/{project}/{package}/{filename}'],
    faults: ['backlog-includes-staged', 'backlog-includes-excluded'],
    reliesOn: ['build.projects.meta-put-creates', 'build.staging.workflow-delete-with-staging-projects', 'build.staging.show-requests', 'build.staging.excluded-requests'],
    tags: ['destructive'],
  },
  async (ctx) => {
    await withStaging(ctx, async (s) => {
      const staged = await scratchSubmit(s, 'staged');
      const excluded = await scratchSubmit(s, 'excluded');
      const waiting = await scratchSubmit(s, 'waiting');
      await s.stage(staged);
      await s.exclude(excluded);
      // An exclusion may land in the background: read until the backlog is as it should be, or the window ends.
      const ids = await rereadUntil(ctx, () => s.backlog(), (v) => v.includes(waiting) && !v.includes(staged) && !v.includes(excluded));
      ctx.expect(ids.includes(waiting), `GET ${s.base}/backlog: request ${waiting} (neither staged nor excluded) is missing ([${ids.join(', ')}])`);
      ctx.expect(!ids.includes(staged), `GET ${s.base}/backlog: lists request ${staged}, staged in ${s.staging}`);
      ctx.expect(!ids.includes(excluded), `GET ${s.base}/backlog: lists request ${excluded}, which is excluded`);
    });
  },
);

export const excludedRequests = check(
  {
    id: 'build.staging.excluded-requests',
    title: 'POST excluded_requests excludes a request, GET lists it, DELETE takes the exclusion back',
    protocol: 'build',
    section,
    // That POST excludes the request and DELETE takes the exclusion back is read from the methods
    // and the route's name (line 156 names them only), as unstage reads its DELETE: SHOULD.
    level: 'SHOULD',
    spec: { file, line: 156, quote: 'GET, POST, DELETE /staging/<project>/excluded_requests (POST/DELETE body names the request)' },
    touches: ['DELETE /source/{project}', 'DELETE /staging/{project}/excluded_requests', 'DELETE /staging/{project}/workflow', 'GET /source/{project}/_meta', 'GET /staging/{project}/backlog', 'GET /staging/{project}/excluded_requests', 'POST /request', 'POST /staging/{project}/excluded_requests', 'POST /staging/{project}/staging_projects', 'POST /staging/{project}/workflow', 'PUT /source/{project}/_meta', 'PUT /source/{project}/{package}/_meta', 'PUT /source/{project}/{package}/{filename}'],
    faults: ['exclusion-delete-noop'],
    reliesOn: ['build.projects.meta-put-creates', 'build.staging.workflow-delete-with-staging-projects'],
    tags: ['destructive'],
  },
  async (ctx) => {
    await withStaging(ctx, async (s) => {
      const id = await scratchSubmit(s, 'excluded');
      await excludeRequest(s.caller, s.base, id);
      ctx.expect((await rereadUntil(ctx, () => s.excluded(), (v) => v.includes(id))).includes(id), `GET ${s.base}/excluded_requests: request ${id} just excluded is not listed`);
      expectServed(await s.caller.delete(`${s.base}/excluded_requests`, { body: `<excluded_requests><request id="${id}"/></excluded_requests>` }), `DELETE ${s.base}/excluded_requests (request ${id})`);
      ctx.expect(!(await rereadUntil(ctx, () => s.excluded(), (v) => !v.includes(id))).includes(id), `GET ${s.base}/excluded_requests: request ${id} is still listed after DELETE`);
      ctx.expect((await rereadUntil(ctx, () => s.backlog(), (v) => v.includes(id))).includes(id), `GET ${s.base}/backlog: request ${id} is not back in the backlog after its exclusion was deleted`);
    });
  },
);

export const stageRemovesExclusion = check(
  {
    id: 'build.staging.stage-remove-exclusion',
    title: 'POST staged_requests with remove_exclusion stages an excluded request and ends its exclusion',
    protocol: 'build',
    section,
    level: 'MUST',
    spec: { file, line: 157, quote: '`remove_exclusion` removes them from exclusion first' },
    touches: ['DELETE /source/{project}', 'DELETE /staging/{project}/workflow', 'GET /source/{project}/_meta', 'GET /staging/{project}/excluded_requests', 'GET /staging/{project}/staging_projects/{staging_project}/staged_requests', 'POST /request', 'POST /staging/{project}/excluded_requests', 'POST /staging/{project}/staging_projects', 'POST /staging/{project}/staging_projects/{staging_project}/staged_requests', 'POST /staging/{project}/workflow', 'PUT /source/{project}/_meta', 'PUT /source/{project}/{package}/_meta', 'PUT /source/{project}/{package}/{filename}'],
    faults: ['remove-exclusion-ignored'],
    reliesOn: ['build.projects.meta-put-creates', 'build.staging.workflow-delete-with-staging-projects', 'build.staging.excluded-requests'],
    tags: ['destructive'],
  },
  async (ctx) => {
    await withStaging(ctx, async (s) => {
      const id = await scratchSubmit(s, 'readmitted');
      await s.exclude(id);
      const path = `${s.base}/staging_projects/${s.staging}/staged_requests`;
      expectServed(await s.caller.post(path, { query: { remove_exclusion: 1 }, body: requestsBody(id) }), `POST ${path}?remove_exclusion=1 (request ${id}, excluded)`);
      // Staging may land in the background (what is left of ctx.timeouts.backgroundMs).
      ctx.expect((await rereadUntil(ctx, () => s.staged(), (v) => v.includes(id))).includes(id), `GET ${path}: request ${id} is not staged after POST with remove_exclusion`);
      ctx.expect(!(await rereadUntil(ctx, () => s.excluded(), (v) => !v.includes(id))).includes(id), `GET ${s.base}/excluded_requests: request ${id} is still excluded after being staged with remove_exclusion`);
    });
  },
);

export const unstage = check(
  {
    id: 'build.staging.unstage',
    title: 'DELETE /staging/<workflow>/staged_requests takes a request out of its staging project, back to the backlog',
    protocol: 'build',
    section,
    // That DELETE unstages the requests is read from the method and the route's name (line 157 names them only).
    level: 'SHOULD',
    spec: { file, line: 157, quote: 'DELETE /staging/<staging_workflow_project>/staged_requests (body)' },
    touches: ['DELETE /source/{project}', 'DELETE /staging/{project}/staged_requests', 'DELETE /staging/{project}/workflow', 'GET /source/{project}/_meta', 'GET /staging/{project}/backlog', 'GET /staging/{project}/staging_projects/{staging_project}/staged_requests', 'POST /request', 'POST /staging/{project}/staging_projects', 'POST /staging/{project}/staging_projects/{staging_project}/staged_requests', 'POST /staging/{project}/workflow', 'PUT /source/{project}/_meta', 'PUT /source/{project}/{package}/_meta', 'PUT /source/{project}/{package}/{filename}'],
    faults: ['unstage-noop'],
    reliesOn: ['build.projects.meta-put-creates', 'build.staging.workflow-delete-with-staging-projects', 'build.staging.show-requests'],
    tags: ['destructive'],
  },
  async (ctx) => {
    await withStaging(ctx, async (s) => {
      const id = await scratchSubmit(s, 'unstaged');
      await s.stage(id);
      ctx.expect((await s.staged()).includes(id), `GET ${s.base}/staging_projects/${s.staging}/staged_requests: request ${id} just staged is not listed`);
      expectServed(await s.caller.delete(`${s.base}/staged_requests`, { body: requestsBody(id) }), `DELETE ${s.base}/staged_requests (request ${id})`);
      ctx.expect(!(await rereadUntil(ctx, () => s.staged(), (v) => !v.includes(id))).includes(id), `GET ${s.base}/staging_projects/${s.staging}/staged_requests: request ${id} is still staged after DELETE`);
      ctx.expect((await rereadUntil(ctx, () => s.backlog(), (v) => v.includes(id))).includes(id), `GET ${s.base}/backlog: request ${id} is not back in the backlog after being unstaged`);
    });
  },
);

export const copy = check(
  {
    id: 'build.staging.copy',
    title: 'POST .../staging_projects/<staging_project>/copy/<name> creates the copy',
    protocol: 'build',
    section,
    // That the copy exists afterwards is read from the route's name (line 154 names the route only).
    level: 'SHOULD',
    spec: { file, line: 154, quote: 'POST .../staging_projects/<staging_project>/copy/<staging_project_copy_name>' },
    touches: ['DELETE /source/{project}', 'DELETE /staging/{project}/workflow', 'GET /source/{project}/_meta', 'POST /staging/{project}/staging_projects', 'POST /staging/{project}/staging_projects/{staging_project}/copy/{copy}', 'POST /staging/{project}/workflow', 'PUT /source/{project}/_meta'],
    faults: ['staging-copy-noop'],
    reliesOn: ['build.projects.meta-put-creates', 'build.staging.workflow-delete-with-staging-projects'],
    tags: ['destructive'],
  },
  async (ctx) => {
    await withStaging(ctx, async (s) => {
      const name = `${s.project}:Staging:D`;
      try {
        // The copy's project must not be there before (else its meta afterwards shows nothing).
        const before = await s.caller.get(`/source/${name}/_meta`);
        if (before.status >= 200 && before.status <= 299 && xmlValues(before).has(name)) ctx.inconclusive(`GET /source/${name}/_meta: the project the copy is to create exists already: ${brief(before)}`);
        expectServed(await s.caller.post(`${s.base}/staging_projects/${s.staging}/copy/${name}`), `POST ${s.base}/staging_projects/${s.staging}/copy/${name}`);
        // The copy may run in the background: give it what is left of ctx.timeouts.backgroundMs.
        // The staging project's meta was read the same way (withStaging): a "not found" here is the copy missing.
        const made = (r: BuildResponse) => r.status >= 200 && r.status <= 299 && xmlValues(r).has(name);
        const res = await rereadUntil(ctx, () => s.caller.get(`/source/${name}/_meta`), made);
        ctx.expect(made(res), `GET /source/${name}/_meta after copying ${s.staging} to it: expected the meta of the project ${name}, got ${brief(res)}`);
      } finally {
        await deleteProject(s.caller, name);
      }
    });
  },
);

export const acceptReturnsToEmpty = check(
  {
    id: 'build.staging.accept-returns-empty',
    title: 'Accepting an acceptable staging project accepts its requests and returns it to state empty',
    protocol: 'build',
    section: 'States and transitions',
    level: 'MUST',
    spec: { file, line: 49, quote: 'A staging project returns to state `empty` after being accepted' },
    touches: ['DELETE /source/{project}', 'DELETE /staging/{project}/workflow', 'GET /request/{id}', 'GET /source/{project}/_meta', 'GET /staging/{project}/staging_projects/{staging_project}', 'GET /staging/{project}/staging_projects/{staging_project}/staged_requests', 'POST /request', 'POST /staging/{project}/staging_projects', 'POST /staging/{project}/staging_projects/{staging_project}/accept', 'POST /staging/{project}/staging_projects/{staging_project}/staged_requests', 'POST /staging/{project}/workflow', 'PUT /source/{project}/_meta', 'PUT /source/{project}/{package}/_meta', 'PUT /source/{project}/{package}/{filename}'],
    faults: ['accept-keeps-staged-requests'],
    reliesOn: ['build.projects.meta-put-creates', 'build.staging.workflow-delete-with-staging-projects', 'build.staging.show-requests'],
    tags: ['destructive'],
  },
  async (ctx) => {
    await withStaging(ctx, async (s) => {
      const id = await scratchSubmit(s, 'accepted');
      await s.stage(id);
      const path = `${s.base}/staging_projects/${s.staging}`;
      expectServed(await s.caller.post(`${path}/accept`), `POST ${path}/accept (one staged request, no reviews)`);
      // Accepting may run in the background: give it what is left of ctx.timeouts.backgroundMs.
      const readState = async () => stagingState(expectServed(await s.caller.get(path, { query: { status: 1 } }), `GET ${path}?status=1`));
      const state = await rereadUntil(ctx, readState, (st) => st === 'empty');
      ctx.expect(state === 'empty', `GET ${path}?status=1 after accept: expected state empty, got ${state ?? 'no state'}`);
      const view = await waitForState(ctx, s.caller, id, 'accepted');
      ctx.expect(view.state === 'accepted', `GET /request/${id}: staged request is ${view.state ?? 'in no state'} after its staging project was accepted`);
    });
  },
);

/**
 * The accept of a staging project whose one request has a missing review is refused (a route not
 * served is not judged), and the request is not accepted for the whole of what is left of
 * ctx.timeouts.backgroundMs (a negative: an accept carried out in the background after a refusal
 * is caught). Then the positive control: once the review is done the same accept is answered with
 * a 2xx, so the refusal was for the missing review (else the check is inconclusive).
 */
async function expectAcceptRefused(ctx: BuildCheckContext, s: StagingScratch, id: string, path: string, query: Record<string, number>): Promise<void> {
  const shown = `POST ${path}/accept${query.force ? '?force=1' : ''}`;
  expectNot2xx(served(await s.caller.post(`${path}/accept`, { query }), `${shown} (request ${id} has a missing review)`), `${shown} (request ${id} has a missing review)`);
  const view = await rereadUntil(ctx, () => showRequest(s.caller, id), (v) => v.state === 'accepted');
  ctx.expect(view.state !== 'accepted', `GET /request/${id}: accepted ${query.force ? 'by a forced staging accept despite its missing review' : 'although the staging accept was refused'}`);
  await setupReviewState(s, id, { by_user: ctx.build.username('user') }, 'accepted');
  await routeServed(ctx, `${shown} once the review of request ${id} is accepted`, () => s.caller.post(`${path}/accept`, { query }), 'build.staging.accept-returns-empty');
}

/** A staging project holding one request with a missing review. */
async function withMissingReview(ctx: BuildCheckContext, body: (s: StagingScratch, id: string, path: string) => Promise<void>): Promise<void> {
  await withStaging(ctx, async (s) => {
    const id = await scratchSubmit(s, 'unreviewed');
    await setupReview(s, id, { by_user: ctx.build.username('user') });
    await s.stage(id);
    await body(s, id, `${s.base}/staging_projects/${s.staging}`);
  });
}

export const acceptNotAcceptable = check(
  {
    id: 'build.staging.accept-fails-not-acceptable',
    title: 'Accepting a staging project that is not acceptable (a missing review) fails without force',
    protocol: 'build',
    section: 'Errors',
    level: 'MUST',
    spec: { file, line: 180, quote: 'staging accept fails when not acceptable unless forced' },
    touches: ['DELETE /source/{project}', 'DELETE /staging/{project}/workflow', 'GET /request/{id}', 'GET /source/{project}/_meta', 'GET /staging/{project}/staging_projects/{staging_project}/staged_requests', 'POST /request', 'POST /request/{id}', 'POST /staging/{project}/staging_projects', 'POST /staging/{project}/staging_projects/{staging_project}/accept', 'POST /staging/{project}/staging_projects/{staging_project}/staged_requests', 'POST /staging/{project}/workflow', 'PUT /source/{project}/_meta', 'PUT /source/{project}/{package}/_meta', 'PUT /source/{project}/{package}/{filename}'],
    faults: ['staging-accept-unchecked', 'staging-accept-refused-then-done'],
    reliesOn: ['build.projects.meta-put-creates', 'build.staging.workflow-delete-with-staging-projects', 'build.staging.show-requests'],
    tags: ['destructive'],
  },
  async (ctx) => {
    await withMissingReview(ctx, async (s, id, path) => {
      await expectAcceptRefused(ctx, s, id, path, {});
    });
  },
);

export const forceNeedsReviews = check(
  {
    id: 'build.staging.force-not-with-missing-reviews',
    title: 'force=1 does not accept a staging project with missing reviews',
    protocol: 'build',
    section,
    level: 'MUST',
    spec: { file, line: 154, quote: '`force`=1 accepts with building or failing packages but not with missing reviews' },
    touches: ['DELETE /source/{project}', 'DELETE /staging/{project}/workflow', 'GET /request/{id}', 'GET /source/{project}/_meta', 'GET /staging/{project}/staging_projects/{staging_project}/staged_requests', 'POST /request', 'POST /request/{id}', 'POST /staging/{project}/staging_projects', 'POST /staging/{project}/staging_projects/{staging_project}/accept', 'POST /staging/{project}/staging_projects/{staging_project}/staged_requests', 'POST /staging/{project}/workflow', 'PUT /source/{project}/_meta', 'PUT /source/{project}/{package}/_meta', 'PUT /source/{project}/{package}/{filename}'],
    faults: ['force-accept-ignores-missing-reviews', 'staging-accept-refused-then-done'],
    reliesOn: ['build.projects.meta-put-creates', 'build.staging.workflow-delete-with-staging-projects', 'build.staging.show-requests'],
    tags: ['destructive'],
  },
  async (ctx) => {
    await withMissingReview(ctx, async (s, id, path) => {
      await expectAcceptRefused(ctx, s, id, path, { force: 1 });
    });
  },
);

export const checks = [workflowDeleteWithStagingProjects, showWithRequests, backlog, excludedRequests, stageRemovesExclusion, unstage, copy, acceptReturnsToEmpty, acceptNotAcceptable, forceNeedsReviews];
