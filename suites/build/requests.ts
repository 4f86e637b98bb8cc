// Section "Requests" of build-service-api.md, with the request rows of "States and transitions"
// and the request `limit` of "Limits". Requests are made between packages of the check's own
// scratch project; the element layout is "not shown", so a state is read from the `state`
// element's `name`, the form the document's state values (`new`, `review`) take.
import { attr, elements, rootOf } from '../../src/clients/xml.ts';
import type { BuildCaller } from '../../src/clients/build/session.ts';
import { check, type BuildCheckContext } from '../../src/core/check.ts';
import { CheckFailure } from '../../src/core/errors.ts';
import { brief, expect2xx, expectNot2xx, withScratchProject } from './support.ts';

const section = 'Requests';
const file = 'build-service-api.md';

interface Made {
  caller: BuildCaller;
  project: string;
  /** Creates a submit request from package a to package b; a `review` by the user when asked. */
  create(opts?: { reviewByUser?: string }): Promise<string>;
  state(id: string): Promise<string>;
}

async function withRequests(ctx: BuildCheckContext, body: (m: Made) => Promise<void>): Promise<void> {
  await withScratchProject(ctx, async ({ caller, project, addPackage }) => {
    await addPackage('a');
    await addPackage('b');
    await body({
      caller,
      project,
      async create(opts = {}) {
        const review = opts.reviewByUser ? `<review by_user="${opts.reviewByUser}"/>` : '';
        const xml = `<request><action type="submit"><source project="${project}" package="a"/><target project="${project}" package="b"/></action>${review}<description>conformance</description></request>`;
        const res = expect2xx(await caller.post('/request', { query: { cmd: 'create' }, body: xml }), 'POST /request?cmd=create');
        const id = attr(rootOf(res.xml)?.node, 'id');
        if (!id) throw new CheckFailure(`POST /request?cmd=create: no request id in the answer: ${brief(res)}`);
        return id;
      },
      async state(id) {
        const res = expect2xx(await caller.get(`/request/${id}`), `GET /request/${id}`);
        return attr(elements(res.xml, 'state')[0], 'name') ?? '(no state)';
      },
    });
  });
}

export const createAndShow = check(
  {
    id: 'build.requests.create-and-show',
    title: 'A request created with cmd=create can be read at /request/<id>',
    protocol: 'build',
    section,
    level: 'MUST',
    spec: { file, line: 108, quote: 'GET /request/<id> (`withhistory`, `withfullhistory`)' },
    faults: ['request-not-stored'],
    tags: ['destructive'],
  },
  async (ctx) => {
    await withRequests(ctx, async ({ caller, create, project }) => {
      const id = await create();
      const res = expect2xx(await caller.get(`/request/${id}`), `GET /request/${id} after creating it`);
      ctx.expect(res.text.includes(project), `GET /request/${id} does not name the request's project ${project}: ${brief(res)}`);
    });
  },
);

export const statesFilter = check(
  {
    id: 'build.requests.states-filter',
    title: 'GET /request with states lists only requests in those states',
    protocol: 'build',
    section: 'States and transitions',
    level: 'MUST',
    spec: { file, line: 49, quote: '`states` accepts a comma-separated list' },
    faults: ['states-filter-ignored'],
    tags: ['destructive'],
  },
  async (ctx) => {
    await withRequests(ctx, async ({ caller, create, project }) => {
      const plain = await create();
      const reviewed = await create({ reviewByUser: ctx.build.username('user') });
      const list = async (states: string) => {
        const res = expect2xx(await caller.get('/request', { query: { view: 'collection', project, states } }), `GET /request?view=collection&project=${project}&states=${states}`);
        return elements(res.xml, 'request').map((r) => attr(r, 'id'));
      };
      const onlyReview = await list('review');
      ctx.expect(onlyReview.includes(reviewed) && !onlyReview.includes(plain), `states=review: expected request ${reviewed} and not ${plain}, got [${onlyReview.join(', ')}]`);
      const both = await list('new,review');
      ctx.expect(both.includes(reviewed) && both.includes(plain), `states=new,review: expected both ${plain} and ${reviewed}, got [${both.join(', ')}]`);
    });
  },
);

export const listLimit = check(
  {
    id: 'build.requests.limit',
    title: 'GET /request with limit=1 lists at most one request',
    protocol: 'build',
    section: 'Limits',
    level: 'MUST',
    spec: { file, line: 184, quote: '`limit` parameters: requests, search results, statistics and status messages' },
    faults: ['request-limit-ignored'],
    tags: ['destructive'],
  },
  async (ctx) => {
    await withRequests(ctx, async ({ caller, create, project }) => {
      await create();
      await create();
      const res = expect2xx(await caller.get('/request', { query: { view: 'collection', project, limit: 1 } }), `GET /request?view=collection&project=${project}&limit=1`);
      const n = elements(res.xml, 'request').length;
      ctx.expect(n <= 1, `limit=1 with two requests in ${project}: got ${n} requests`);
    });
  },
);

export const collectionNeedsFilter = check(
  {
    id: 'build.requests.collection-needs-filter',
    title: 'view=collection without a user, project or package filter is refused',
    protocol: 'build',
    section,
    level: 'SHOULD',
    spec: { file, line: 107, quote: '`view`=collection (needs a filter by user, project or package)' },
    faults: ['collection-unfiltered-accepted'],
  },
  async (ctx) => {
    expectNot2xx(await ctx.build.as('user').get('/request', { query: { view: 'collection' } }), 'GET /request?view=collection without a filter');
  },
);

export const changestateNewstate = check(
  {
    id: 'build.requests.changestate-sets-newstate',
    title: 'cmd=changestate sets the state given in newstate',
    protocol: 'build',
    section: 'States and transitions',
    level: 'MUST',
    spec: { file, line: 49, quote: '`changestate` sets the state given in `newstate`' },
    faults: ['changestate-ignores-newstate'],
    tags: ['destructive'],
  },
  async (ctx) => {
    await withRequests(ctx, async ({ caller, create, state }) => {
      const id = await create();
      expect2xx(await caller.post(`/request/${id}`, { query: { cmd: 'changestate', newstate: 'revoked', comment: 'conformance' } }), `POST /request/${id}?cmd=changestate&newstate=revoked`);
      const now = await state(id);
      ctx.expect(now === 'revoked', `request ${id} after changestate newstate=revoked is in state ${now}`);
    });
  },
);

export const approveThenLastReview = check(
  {
    id: 'build.requests.approve-accepts-after-last-review',
    title: 'An approved request in review turns into accepted when its last review is accepted',
    protocol: 'build',
    section: 'States and transitions',
    level: 'MUST',
    spec: { file, line: 54, quote: '| request in review | cmd=approve | - | accepted after last review |' },
    faults: ['approval-ignored'],
    tags: ['destructive'],
  },
  async (ctx) => {
    const me = ctx.build.username('user');
    await withRequests(ctx, async ({ caller, create, state }) => {
      const id = await create({ reviewByUser: me });
      ctx.expect((await state(id)) === 'review', `request ${id} with a review should be in state review`);
      expect2xx(await caller.post(`/request/${id}`, { query: { cmd: 'approve' } }), `POST /request/${id}?cmd=approve`);
      const approved = await state(id);
      ctx.expect(approved === 'review', `request ${id} must stay in review until its last review is accepted, got ${approved}`);
      expect2xx(await caller.post(`/request/${id}`, { query: { cmd: 'changereviewstate', newstate: 'accepted', by_user: me } }), `POST /request/${id}?cmd=changereviewstate&newstate=accepted&by_user=${me}`);
      const after = await state(id);
      ctx.expect(after === 'accepted', `approved request ${id} after its last review was accepted is in state ${after}, expected accepted`);
    });
  },
);

export const cancelApproval = check(
  {
    id: 'build.requests.cancelapproval-resets',
    title: 'cmd=cancelapproval resets the approval: the last review no longer accepts the request',
    protocol: 'build',
    section: 'States and transitions',
    level: 'MUST',
    spec: { file, line: 55, quote: '| approved request | cmd=cancelapproval | - | approval reset |' },
    faults: ['cancelapproval-noop'],
    tags: ['destructive'],
  },
  async (ctx) => {
    const me = ctx.build.username('user');
    await withRequests(ctx, async ({ caller, create, state }) => {
      const id = await create({ reviewByUser: me });
      expect2xx(await caller.post(`/request/${id}`, { query: { cmd: 'approve' } }), `POST /request/${id}?cmd=approve`);
      expect2xx(await caller.post(`/request/${id}`, { query: { cmd: 'cancelapproval' } }), `POST /request/${id}?cmd=cancelapproval`);
      expect2xx(await caller.post(`/request/${id}`, { query: { cmd: 'changereviewstate', newstate: 'accepted', by_user: me } }), `POST /request/${id}?cmd=changereviewstate&newstate=accepted&by_user=${me}`);
      const after = await state(id);
      ctx.expect(after !== 'accepted', `request ${id} was accepted by its last review although its approval was cancelled`);
    });
  },
);

export const checks = [createAndShow, statesFilter, listLimit, collectionNeedsFilter, changestateNewstate, approveThenLastReview, cancelApproval];
