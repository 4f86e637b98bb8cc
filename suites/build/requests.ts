// Section "Requests" of build-service-api.md, with the request lines of "States and transitions",
// "Limits" and "Authentication". Every check works on requests between packages of its own
// scratch project.
import { check } from '../../src/core/check.ts';
import { attr, buildXml, text, type XmlNode } from '../../src/clients/xml.ts';
import { brief, expectNot2xx, expectServed, rereadUntil, routeServed, withScratchProject } from './support.ts';
import { addSourcePackage, childText, collection, direct, scratchSubmit, setupRequest, setupReview, setupReviewState, showRequest, waitForState } from './request-helpers.ts';

const section = 'Requests';
const file = 'build-service-api.md';

export const statesFilter = check(
  {
    id: 'build.requests.states-filter',
    title: 'GET /request?view=collection&states= lists only requests in the named states, comma-separated',
    protocol: 'build',
    section,
    level: 'MUST',
    spec: { file, line: 49, quote: '`new` and `review` are named as state filter values (`states` accepts a comma-separated list)' },
    touches: ['DELETE /source/{project}', 'GET /request', 'POST /request', 'POST /request/{id}', 'PUT /source/{project}/_meta', 'PUT /source/{project}/{package}/_meta', 'PUT /source/{project}/{package}/{filename}'],
    faults: ['states-filter-ignored', 'states-filter-first-only'],
    tags: ['destructive'],
    reliesOn: ['build.projects.meta-put-creates', 'build.requests.addreview'],
  },
  async (ctx) => {
    await withScratchProject(ctx, async (s) => {
      const fresh = await scratchSubmit(s, 'fresh');
      const reviewed = await scratchSubmit(s, 'reviewed');
      await setupReview(s, reviewed, { by_user: ctx.build.username('user') });
      const inNew = await collection(s.caller, { project: s.project, states: 'new' });
      ctx.expect(inNew.includes(fresh) && !inNew.includes(reviewed), `GET /request?view=collection&project=${s.project}&states=new: expected ${fresh} (new) and not ${reviewed} (in review), got [${inNew.join(', ')}]`);
      const inReview = await collection(s.caller, { project: s.project, states: 'review' });
      ctx.expect(inReview.includes(reviewed) && !inReview.includes(fresh), `GET /request?view=collection&project=${s.project}&states=review: expected ${reviewed} (in review) and not ${fresh} (new), got [${inReview.join(', ')}]`);
      const both = await collection(s.caller, { project: s.project, states: 'new,review' });
      ctx.expect(both.includes(fresh) && both.includes(reviewed), `GET /request?view=collection&project=${s.project}&states=new,review: expected both ${fresh} and ${reviewed}, got [${both.join(', ')}]`);
    });
  },
);

export const typesFilter = check(
  {
    id: 'build.requests.types-filter',
    title: 'GET /request?view=collection&types= lists only requests with actions of those types',
    protocol: 'build',
    section,
    // What `types` filters is read from its name, and the type names (`submit`, `delete`) are the
    // build service's: the document says only "action types" (line 30).
    level: 'SHOULD',
    spec: { file, line: 107, quote: '`states`, `types`, `roles` (creator, maintainer, reviewer, source, target)' },
    touches: ['DELETE /source/{project}', 'GET /request', 'POST /request', 'PUT /source/{project}/_meta', 'PUT /source/{project}/{package}/_meta', 'PUT /source/{project}/{package}/{filename}'],
    faults: ['types-filter-ignored'],
    tags: ['destructive'],
    reliesOn: ['build.projects.meta-put-creates'],
  },
  async (ctx) => {
    await withScratchProject(ctx, async (s) => {
      const submit = await scratchSubmit(s, 'submitted');
      const doomed = await s.addPackage('doomed');
      const del = await setupRequest(ctx, s.caller, [{ type: 'delete', target: { project: s.project, package: doomed } }]);
      const deletes = await collection(s.caller, { project: s.project, types: 'delete' });
      ctx.expect(deletes.includes(del) && !deletes.includes(submit), `GET /request?view=collection&project=${s.project}&types=delete: expected the delete request ${del} and not the submit request ${submit}, got [${deletes.join(', ')}]`);
      const submits = await collection(s.caller, { project: s.project, types: 'submit' });
      ctx.expect(submits.includes(submit) && !submits.includes(del), `GET /request?view=collection&project=${s.project}&types=submit: expected the submit request ${submit} and not the delete request ${del}, got [${submits.join(', ')}]`);
    });
  },
);

export const rolesFilter = check(
  {
    id: 'build.requests.roles-filter',
    title: 'roles=source and roles=target tell the source project of a request from its target project',
    protocol: 'build',
    section,
    // What each role selects is read from its name (line 107 lists the names only).
    level: 'SHOULD',
    spec: { file, line: 107, quote: '`roles` (creator, maintainer, reviewer, source, target)' },
    touches: ['DELETE /source/{project}', 'GET /request', 'POST /request', 'PUT /source/{project}/_meta', 'PUT /source/{project}/{package}/_meta', 'PUT /source/{project}/{package}/{filename}'],
    faults: ['roles-filter-ignored'],
    tags: ['destructive'],
    reliesOn: ['build.projects.meta-put-creates'],
  },
  async (ctx) => {
    await withScratchProject(ctx, async (from) => {
      await withScratchProject(ctx, async (to) => {
        await addSourcePackage(from, 'outgoing');
        await to.addPackage('incoming');
        const id = await setupRequest(ctx, from.caller, [{ type: 'submit', source: { project: from.project, package: 'outgoing' }, target: { project: to.project, package: 'incoming' } }]);
        const asSource = await collection(from.caller, { project: from.project, roles: 'source' });
        ctx.expect(asSource.includes(id), `GET /request?view=collection&project=${from.project}&roles=source: request ${id} from that project is missing ([${asSource.join(', ')}])`);
        const asTarget = await collection(from.caller, { project: from.project, roles: 'target' });
        ctx.expect(!asTarget.includes(id), `GET /request?view=collection&project=${from.project}&roles=target: lists request ${id}, whose target is ${to.project}`);
        const toTarget = await collection(from.caller, { project: to.project, roles: 'target' });
        ctx.expect(toTarget.includes(id), `GET /request?view=collection&project=${to.project}&roles=target: request ${id} to that project is missing ([${toTarget.join(', ')}])`);
        const created = await collection(from.caller, { user: ctx.build.username('user'), roles: 'creator', states: 'new,review' });
        ctx.expect(created.includes(id), `GET /request?view=collection&user=${ctx.build.username('user')}&roles=creator: request ${id} created by that user is missing`);
      });
    });
  },
);

export const collectionNeedsFilter = check(
  {
    id: 'build.requests.collection-needs-filter',
    title: 'GET /request?view=collection without a user, project or package filter is refused',
    protocol: 'build',
    section,
    level: 'MUST',
    spec: { file, line: 107, quote: '`view`=collection (needs a filter by user, project or package)' },
    touches: ['GET /request'],
    faults: ['collection-without-filter-served'],
  },
  async (ctx) => {
    const caller = ctx.build.as('user');
    const login = ctx.build.username('user');
    // The positive control: the same route and view, filtered by the user, is served.
    await routeServed(ctx, `GET /request?view=collection&user=${login}`, () => caller.get('/request', { query: { view: 'collection', user: login } }), 'build.requests.roles-filter');
    expectNot2xx(await caller.get('/request', { query: { view: 'collection' } }), 'GET /request?view=collection without user, project or package');
  },
);

export const requestLimit = check(
  {
    id: 'build.requests.limit',
    title: 'GET /request?view=collection&limit=2 lists at most 2 of 3 matching requests',
    protocol: 'build',
    section: 'Limits',
    level: 'MUST',
    spec: { file, line: 184, quote: '`limit` parameters: requests, search results, statistics and status messages' },
    touches: ['DELETE /source/{project}', 'GET /request', 'POST /request', 'PUT /source/{project}/_meta', 'PUT /source/{project}/{package}/_meta', 'PUT /source/{project}/{package}/{filename}'],
    faults: ['request-limit-ignored'],
    tags: ['destructive'],
    reliesOn: ['build.projects.meta-put-creates'],
  },
  async (ctx) => {
    await withScratchProject(ctx, async (s) => {
      for (const name of ['one', 'two', 'three']) await scratchSubmit(s, name);
      await ctx.setup('list the 3 requests without a limit', async () => {
        const all = await collection(s.caller, { project: s.project });
        ctx.expect(all.length >= 3, `GET /request?view=collection&project=${s.project}: expected the 3 requests created, got ${all.length}`);
      });
      const limited = await collection(s.caller, { project: s.project, limit: 2 });
      ctx.expect(limited.length >= 1 && limited.length <= 2, `GET /request?view=collection&project=${s.project}&limit=2: expected 1 or 2 requests, got ${limited.length}`);
    });
  },
);

export const changestateSetsNewstate = check(
  {
    id: 'build.requests.changestate-sets-newstate',
    title: 'cmd=changestate sets the state given in newstate',
    protocol: 'build',
    section: 'States and transitions',
    level: 'MUST',
    spec: { file, line: 49, quote: '`changestate` sets the state given in `newstate`' },
    touches: ['DELETE /source/{project}', 'GET /request/{id}', 'POST /request', 'POST /request/{id}', 'PUT /source/{project}/_meta', 'PUT /source/{project}/{package}/_meta', 'PUT /source/{project}/{package}/{filename}'],
    faults: ['changestate-ignores-newstate'],
    tags: ['destructive'],
    reliesOn: ['build.projects.meta-put-creates'],
  },
  async (ctx) => {
    await withScratchProject(ctx, async (s) => {
      const id = await scratchSubmit(s, 'accepted');
      expectServed(await s.caller.post(`/request/${id}`, { query: { cmd: 'changestate', newstate: 'accepted', comment: 'conformance' } }), `POST /request/${id}?cmd=changestate&newstate=accepted`);
      const view = await waitForState(ctx, s.caller, id, 'accepted');
      ctx.expect(view.state === 'accepted', `GET /request/${id} after changestate newstate=accepted: state is ${view.state ?? 'not shown'}`);
    });
  },
);

export const addreviewKinds = check(
  {
    id: 'build.requests.addreview',
    title: 'cmd=addreview adds reviews by_user and by_project with by_package, and puts a new request in review',
    protocol: 'build',
    section,
    // What addreview does (and that a request in new moves to review) is read from the command's name (line 112 lists it only).
    level: 'SHOULD',
    spec: { file, line: 112, quote: '`addreview`, `assignreview`, `changestate`, `changereviewstate`' },
    touches: ['DELETE /source/{project}', 'GET /request/{id}', 'POST /request', 'POST /request/{id}', 'PUT /source/{project}/_meta', 'PUT /source/{project}/{package}/_meta', 'PUT /source/{project}/{package}/{filename}'],
    faults: ['addreview-keeps-state-new', 'review-by-package-dropped'],
    tags: ['destructive'],
    reliesOn: ['build.projects.meta-put-creates'],
  },
  async (ctx) => {
    await withScratchProject(ctx, async (s) => {
      const id = await scratchSubmit(s, 'reviewed');
      const user = ctx.build.username('user');
      expectServed(await s.caller.post(`/request/${id}`, { query: { cmd: 'addreview', by_user: user } }), `POST /request/${id}?cmd=addreview&by_user=${user}`);
      expectServed(await s.caller.post(`/request/${id}`, { query: { cmd: 'addreview', by_project: s.project, by_package: 'reviewed' } }), `POST /request/${id}?cmd=addreview&by_project=${s.project}&by_package=reviewed`);
      const view = await showRequest(s.caller, id);
      ctx.expect(view.state === 'review', `GET /request/${id} after addreview: expected state review, got ${view.state ?? 'no state'}`);
      ctx.expect(view.reviews.some((r) => attr(r, 'by_user') === user), `GET /request/${id}: no review by_user=${user} (${brief(view.res)})`);
      ctx.expect(view.reviews.some((r) => attr(r, 'by_project') === s.project && attr(r, 'by_package') === 'reviewed'), `GET /request/${id}: no review by_project=${s.project} by_package=reviewed (${brief(view.res)})`);
    });
  },
);

export const changereviewstate = check(
  {
    id: 'build.requests.changereviewstate',
    title: 'cmd=changereviewstate sets the state of the review it names',
    protocol: 'build',
    section: 'States and transitions',
    level: 'MUST',
    spec: { file, line: 49, quote: '`changereviewstate` sets a review\'s state' },
    touches: ['DELETE /source/{project}', 'GET /request/{id}', 'POST /request', 'POST /request/{id}', 'PUT /source/{project}/_meta', 'PUT /source/{project}/{package}/_meta', 'PUT /source/{project}/{package}/{filename}'],
    faults: ['changereviewstate-ignored'],
    tags: ['destructive'],
    reliesOn: ['build.projects.meta-put-creates', 'build.requests.addreview'],
  },
  async (ctx) => {
    await withScratchProject(ctx, async (s) => {
      const id = await scratchSubmit(s, 'reviewed');
      const user = ctx.build.username('user');
      await setupReview(s, id, { by_user: user });
      // Line 49 names no review state and no move between them (and line 43 no structure): the
      // check asserts only that the review's state, as the build service writes it (the review's
      // `state`), is set anew: it differs from what it was before the command.
      const before = await ctx.setup(`read the review by_user=${user} of request ${id}`, async () => {
        const view = await showRequest(s.caller, id);
        const review = view.reviews.find((r) => attr(r, 'by_user') === user);
        ctx.expect(review && reviewState(review), `GET /request/${id}: no review by_user=${user} with a state (${brief(view.res)})`);
        return reviewState(review!);
      }, { seeAlso: 'build.requests.addreview' });
      expectServed(await s.caller.post(`/request/${id}`, { query: { cmd: 'changereviewstate', by_user: user, newstate: 'accepted', comment: 'conformance' } }), `POST /request/${id}?cmd=changereviewstate&by_user=${user}&newstate=accepted`);
      const view = await showRequest(s.caller, id);
      const review = view.reviews.find((r) => attr(r, 'by_user') === user);
      const after = review && reviewState(review);
      ctx.expect(review && after !== before, `GET /request/${id}: the review by_user=${user} is ${review ? `still in state ${after}` : 'gone'} after changereviewstate newstate=accepted (it was ${before} before)`);
    });
  },
);

export const approveAfterLastReview = check(
  {
    id: 'build.requests.approve-after-last-review',
    title: 'An approved request in review stays in review until its last review is accepted, then turns into accepted',
    protocol: 'build',
    section: 'States and transitions',
    level: 'MUST',
    spec: { file, line: 54, quote: '| request in review | cmd=approve | - | accepted after last review |' },
    touches: ['DELETE /source/{project}', 'GET /request/{id}', 'POST /request', 'POST /request/{id}', 'PUT /source/{project}/_meta', 'PUT /source/{project}/{package}/_meta', 'PUT /source/{project}/{package}/{filename}'],
    faults: ['approve-accepts-before-last-review', 'approve-ignored'],
    tags: ['destructive'],
    reliesOn: ['build.projects.meta-put-creates', 'build.requests.addreview', 'build.requests.changereviewstate'],
  },
  async (ctx) => {
    await withScratchProject(ctx, async (s) => {
      const id = await scratchSubmit(s, 'approved');
      const user = ctx.build.username('user');
      await setupReview(s, id, { by_user: user });
      await setupReview(s, id, { by_project: s.project });
      expectServed(await s.caller.post(`/request/${id}`, { query: { cmd: 'approve' } }), `POST /request/${id}?cmd=approve`);
      await setupReviewState(s, id, { by_user: user }, 'accepted');
      // "stays in review" must hold while a server could still be carrying out the approval and
      // the review change in the background: re-read for a fifth of the background budget.
      const middle = await rereadUntil(ctx, () => showRequest(s.caller, id), (v) => v.state !== 'review', ctx.timeouts.backgroundMs / 5);
      ctx.expect(middle.state === 'review', `GET /request/${id}: approved with one review still open, expected state review, got ${middle.state ?? 'no state'}`);
      await setupReviewState(s, id, { by_project: s.project }, 'accepted');
      const last = await waitForState(ctx, s.caller, id, 'accepted');
      ctx.expect(last.state === 'accepted', `GET /request/${id}: approved and its last review accepted, expected state accepted, got ${last.state ?? 'no state'}`);
    });
  },
);

export const cancelapprovalResets = check(
  {
    id: 'build.requests.cancelapproval-resets',
    title: 'After cancelapproval, accepting the last review no longer accepts the request',
    protocol: 'build',
    section: 'States and transitions',
    level: 'MUST',
    spec: { file, line: 55, quote: '| approved request | cmd=cancelapproval | - | approval reset |' },
    touches: ['DELETE /source/{project}', 'GET /request/{id}', 'POST /request', 'POST /request/{id}', 'PUT /source/{project}/_meta', 'PUT /source/{project}/{package}/_meta', 'PUT /source/{project}/{package}/{filename}'],
    faults: ['cancelapproval-noop'],
    tags: ['destructive'],
    reliesOn: ['build.projects.meta-put-creates', 'build.requests.addreview', 'build.requests.changereviewstate', 'build.requests.approve-after-last-review'],
  },
  async (ctx) => {
    await withScratchProject(ctx, async (s) => {
      const id = await scratchSubmit(s, 'unapproved');
      const user = ctx.build.username('user');
      await setupReview(s, id, { by_user: user });
      await ctx.setup(`approve request ${id}`, async () => expectServed(await s.caller.post(`/request/${id}`, { query: { cmd: 'approve' } }), `POST /request/${id}?cmd=approve`), { seeAlso: 'build.requests.approve-after-last-review' });
      expectServed(await s.caller.post(`/request/${id}`, { query: { cmd: 'cancelapproval' } }), `POST /request/${id}?cmd=cancelapproval`);
      await setupReviewState(s, id, { by_user: user }, 'accepted');
      // A server that accepts approved requests asynchronously gets the same time to do it wrongly.
      const view = await waitForState(ctx, s.caller, id, 'accepted', ctx.timeouts.backgroundMs / 5);
      ctx.expect(view.state !== 'accepted', `GET /request/${id}: approval cancelled, yet the request turned into accepted after its last review`);
    });
  },
);

export const setpriority = check(
  {
    id: 'build.requests.setpriority',
    title: 'cmd=setpriority changes the priority of the request',
    protocol: 'build',
    section,
    // What setpriority does is read from its name (line 112 lists it only).
    level: 'SHOULD',
    spec: { file, line: 112, quote: '`setpriority`, `setincident`, `setacceptat`, `approve`, `cancelapproval`' },
    touches: ['DELETE /source/{project}', 'GET /request/{id}', 'POST /request', 'POST /request/{id}', 'PUT /source/{project}/_meta', 'PUT /source/{project}/{package}/_meta', 'PUT /source/{project}/{package}/{filename}'],
    faults: ['setpriority-ignored'],
    tags: ['destructive'],
    reliesOn: ['build.projects.meta-put-creates'],
  },
  async (ctx) => {
    await withScratchProject(ctx, async (s) => {
      const id = await scratchSubmit(s, 'urgent');
      expectServed(await s.caller.post(`/request/${id}`, { query: { cmd: 'setpriority', priority: 'critical' } }), `POST /request/${id}?cmd=setpriority&priority=critical`);
      const view = await rereadUntil(ctx, () => showRequest(s.caller, id), (v) => childText(v, 'priority') === 'critical');
      const priority = childText(view, 'priority');
      ctx.expect(priority === 'critical', `GET /request/${id} after setpriority priority=critical: priority is ${priority ?? 'not shown'}`);
    });
  },
);

export const setacceptat = check(
  {
    id: 'build.requests.setacceptat-time',
    title: 'cmd=setacceptat sets the accept time given in time, and now when time is not given',
    protocol: 'build',
    section,
    level: 'MUST',
    spec: { file, line: 112, quote: '`time` (accept time; now when not given)' },
    touches: ['DELETE /source/{project}', 'GET /request/{id}', 'POST /request', 'POST /request/{id}', 'PUT /source/{project}/_meta', 'PUT /source/{project}/{package}/_meta', 'PUT /source/{project}/{package}/{filename}'],
    faults: ['setacceptat-ignores-time', 'setacceptat-needs-time'],
    tags: ['destructive'],
    reliesOn: ['build.projects.meta-put-creates'],
  },
  async (ctx) => {
    await withScratchProject(ctx, async (s) => {
      const day = 24 * 3600 * 1000;
      // The customary element is accept_at; its zone may be rendered or not, hence a day's slack.
      const acceptAt = async (id: string) => Date.parse(childText(await showRequest(s.caller, id), 'accept_at') ?? '');
      const later = await scratchSubmit(s, 'later');
      const time = new Date(Date.now() + 3650 * day);
      time.setUTCMilliseconds(0);
      expectServed(await s.caller.post(`/request/${later}`, { query: { cmd: 'setacceptat', time: time.toISOString() } }), `POST /request/${later}?cmd=setacceptat&time=${time.toISOString()}`);
      const given = await acceptAt(later);
      ctx.expect(Math.abs(given - time.getTime()) < day, `GET /request/${later}: accept time ${Number.isNaN(given) ? 'not shown' : new Date(given).toISOString()} after setacceptat time=${time.toISOString()}`);
      const soon = await scratchSubmit(s, 'soon');
      expectServed(await s.caller.post(`/request/${soon}`, { query: { cmd: 'setacceptat' } }), `POST /request/${soon}?cmd=setacceptat without time`);
      const nowish = await acceptAt(soon);
      ctx.expect(Math.abs(nowish - Date.now()) < day, `GET /request/${soon}: accept time ${Number.isNaN(nowish) ? 'not shown' : new Date(nowish).toISOString()} after setacceptat without time (expected now)`);
    });
  },
);

export const requestDiff = check(
  {
    id: 'build.requests.diff-all-packages',
    title: 'POST /request/<id>?cmd=diff covers every affected package',
    protocol: 'build',
    section,
    level: 'MUST',
    spec: { file, line: 111, quote: 'POST /request/<id>?cmd=diff: diff of all affected packages' },
    touches: ['DELETE /source/{project}', 'POST /request', 'POST /request/{id}', 'PUT /source/{project}/_meta', 'PUT /source/{project}/{package}/_meta', 'PUT /source/{project}/{package}/{filename}'],
    faults: ['request-diff-first-action-only'],
    tags: ['destructive'],
    reliesOn: ['build.projects.meta-put-creates'],
  },
  async (ctx) => {
    await withScratchProject(ctx, async (s) => {
      await addSourcePackage(s, 'first', 'first-action-file.txt');
      await addSourcePackage(s, 'second', 'second-action-file.txt');
      const id = await setupRequest(ctx, s.caller, [
        { type: 'submit', source: { project: s.project, package: 'first' }, target: { project: s.project, package: 'first-target' } },
        { type: 'submit', source: { project: s.project, package: 'second' }, target: { project: s.project, package: 'second-target' } },
      ]);
      const res = expectServed(await s.caller.post(`/request/${id}`, { query: { cmd: 'diff' } }), `POST /request/${id}?cmd=diff`);
      const missing = ['first-action-file.txt', 'second-action-file.txt'].filter((f) => !res.text.includes(f));
      ctx.expect(!missing.length, `POST /request/${id}?cmd=diff (two submit actions): the diff does not mention ${missing.join(' and ')}`);
    });
  },
);

export const putAllPartsAdminOnly = check(
  {
    id: 'build.requests.put-all-parts-admin-only',
    title: 'PUT /request/<id> changing the state takes effect for an admin, not for an ordinary user',
    protocol: 'build',
    section: 'Authentication',
    level: 'MUST',
    spec: { file, line: 171, quote: 'Some operations require appropriate permissions (statistics redirect, status messages, request modification of all parts)' },
    touches: ['DELETE /source/{project}', 'GET /request/{id}', 'POST /request', 'PUT /request/{id}', 'PUT /source/{project}/_meta', 'PUT /source/{project}/{package}/_meta', 'PUT /source/{project}/{package}/{filename}'],
    faults: ['request-put-open-to-all'],
    tags: ['destructive'],
    reliesOn: ['build.projects.meta-put-creates'],
  },
  async (ctx) => {
    await withScratchProject(ctx, async (s) => {
      const id = await scratchSubmit(s, 'modified');
      // The request as the server shows it, with its state set to accepted (read and written as a
      // document, whatever its quoting, attribute order or layout).
      const body = await ctx.setup(`read request ${id} to modify it`, async () => {
        const shown = await showRequest(s.caller, id);
        const state = shown.root && direct(shown.root, 'state')[0];
        ctx.expect(state, `GET /request/${id} shows no <state> to change: ${brief(shown.res)}`);
        // The state where the server wrote it: `name` (as the build service), else the text.
        if (attr(state!, 'name') !== undefined) state!['@name'] = 'accepted';
        else state!['#text'] = 'accepted';
        return buildXml({ request: shown.root! });
      });
      const byUser = await s.caller.put(`/request/${id}`, { body });
      // Not accepted, for as long as a server could take to carry the PUT out in the background.
      const after = await waitForState(ctx, s.caller, id, 'accepted', ctx.timeouts.backgroundMs / 5);
      ctx.expect(after.state !== 'accepted', `PUT /request/${id} as an ordinary user (state set to accepted): answered ${byUser.status}, and the request is now accepted`);
      expectServed(await ctx.build.as('admin').put(`/request/${id}`, { body }), `PUT /request/${id} as an admin (state set to accepted)`);
      const byAdmin = await waitForState(ctx, s.caller, id, 'accepted');
      ctx.expect(byAdmin.state === 'accepted', `GET /request/${id} after an admin's PUT set the state to accepted: state is ${byAdmin.state ?? 'not shown'}`);
    });
  },
);

/** A review's state as the build service writes it: its `state` (an attribute, or else a child element). */
function reviewState(review: XmlNode): string | undefined {
  return attr(review, 'state') ?? (direct(review, 'state')[0] ? text(direct(review, 'state')[0]).trim() : undefined);
}

export const checks = [
  statesFilter,
  typesFilter,
  rolesFilter,
  collectionNeedsFilter,
  requestLimit,
  changestateSetsNewstate,
  addreviewKinds,
  changereviewstate,
  approveAfterLastReview,
  cancelapprovalResets,
  setpriority,
  setacceptat,
  requestDiff,
  putAllPartsAdminOnly,
];
