// Section "About, architectures, issue trackers, distributions" of build-service-api.md.
import { randomBytes } from 'node:crypto';
import { check } from '../../src/core/check.ts';
import { elements } from '../../src/clients/xml.ts';
import { CheckFailure } from '../../src/core/errors.ts';
import { brief, expect2xx, expectNot2xx, expectServed, nodeValues, rereadUntil, rootName, xmlValues } from './support.ts';

const section = 'About, architectures, issue trackers, distributions';
const file = 'build-service-api.md';

export const about = check(
  {
    id: 'build.about.about',
    title: 'GET /about answers with information about the API',
    protocol: 'build',
    section,
    level: 'SHOULD',
    spec: { file, line: 65, quote: 'GET /about: information about the API.' },
    touches: ['GET /about'],
    faults: ['about-as-status'],
  },
  async (ctx) => {
    const res = expectServed(await ctx.build.as('user').get('/about'), 'GET /about');
    ctx.expect(res.xml !== undefined, `GET /about: expected a structured document, got ${brief(res)}`);
    // The document shows no shape, but information about the API is not the bare outcome document
    // (`<status code=...>`) the service answers a command with, and it says something.
    ctx.expect(rootName(res) !== 'status', `GET /about answers with an outcome (<status>), not information about the API: ${brief(res)}`);
    ctx.expect([...xmlValues(res)].some(Boolean), `GET /about: the document holds no information: ${brief(res)}`);
  },
);

export const architectures = check(
  {
    id: 'build.about.architectures',
    title: 'GET /architectures lists architectures, the fixture architecture among them',
    protocol: 'build',
    section,
    level: 'SHOULD',
    spec: { file, line: 66, quote: 'GET /architectures: all architectures known in general' },
    touches: ['GET /architectures'],
    faults: ['architectures-omit-fixture-arch'],
  },
  async (ctx) => {
    const arch = ctx.build.fixture(ctx.build.fixtures.arch, 'arch');
    const res = expectServed(await ctx.build.as('user').get('/architectures'), 'GET /architectures');
    ctx.expect(xmlValues(res).has(arch), `GET /architectures does not name ${arch}, an architecture the fixture project builds for: ${brief(res)}`);
  },
);

export const issueTrackerLifecycle = check(
  {
    id: 'build.about.issue-tracker-update-delete',
    title: 'An issue tracker created by POST is read, updated by PUT and deleted by DELETE',
    protocol: 'build',
    section,
    level: 'MUST',
    spec: { file, line: 67, quote: 'GET, PUT, DELETE /issue_trackers/<name>: read, update, delete (delete has no body)' },
    touches: ['DELETE /issue_trackers/{name}', 'GET /issue_trackers', 'GET /issue_trackers/{name}', 'POST /issue_trackers', 'PUT /issue_trackers/{name}'],
    faults: ['issue-tracker-put-ignored', 'issue-tracker-delete-noop'],
    tags: ['destructive'],
  },
  async (ctx) => {
    const admin = ctx.build.as('admin');
    const name = `conformance-${randomBytes(3).toString('hex')}`;
    // Element names are not shown in the document; these are the build service's own.
    const body = (description: string) =>
      `<issue-tracker><name>${name}</name><kind>bugzilla</kind><description>${description}</description><url>https://bugs.example.test</url><show-url>https://bugs.example.test/@@@</show-url><regex>${name}#(\\d+)</regex><label>${name}#@@@</label></issue-tracker>`;
    const path = `/issue_trackers/${name}`;
    // Creating it is set-up (line 67's POST; the rule is GET, PUT, DELETE of /<name>), and a 2xx
    // to the POST is not seen to create anything (rubric 14: an Open Build Service backend answers
    // a POST there with the listing, as a GET): it is read back in the listing first. Refused or
    // not listed, the check ends inconclusive. Only a POST answered 2xx is cleaned up after.
    await ctx.setup(`create the issue tracker ${name}`, async () => expect2xx(await admin.post('/issue_trackers', { body: body('first') }), `POST /issue_trackers (${name})`));
    try {
      await ctx.setup(`read the issue tracker ${name} back in GET /issue_trackers`, async () => {
        const listing = await rereadUntil(ctx, () => admin.get('/issue_trackers'), (r) => xmlValues(r).has(name));
        if (!xmlValues(listing).has(name)) throw new CheckFailure(`GET /issue_trackers after POST does not list ${name}: ${brief(listing)}`);
      });
      // The tracker exists now: a route of line 67 answering that it is not served (400 "unknown
      // request", 404) leaves the rule untested (inconclusive); any other refusal fails it.
      expectServed(await admin.get(path), `GET ${path}`);
      expectServed(await admin.put(path, { body: body('updated by conformance') }), `PUT ${path}`);
      // Each effect may land later (rubric 6): re-read until the background budget is spent.
      const updated = expect2xx(await rereadUntil(ctx, () => admin.get(path), (r) => xmlValues(r).has('updated by conformance')), `GET ${path} after PUT`);
      ctx.expect(xmlValues(updated).has('updated by conformance'), `GET ${path} after PUT does not show the new description: ${brief(updated)}`);
      expectServed(await admin.delete(path), `DELETE ${path}`);
      expectNot2xx(await rereadUntil(ctx, () => admin.get(path), (r) => r.status < 200 || r.status > 299), `GET ${path} after DELETE`);
    } finally {
      await admin.delete(path).catch(() => undefined);
    }
  },
);

export const includeRemotes = check(
  {
    id: 'build.about.distributions-include-remotes',
    title: 'GET /distributions/include_remotes lists the local distributions too',
    protocol: 'build',
    section,
    level: 'MUST',
    spec: { file, line: 69, quote: 'GET /distributions/include_remotes: local and used remote' },
    touches: ['GET /distributions', 'GET /distributions/include_remotes'],
    faults: ['include-remotes-drops-local'],
  },
  async (ctx) => {
    const user = ctx.build.as('user');
    // Each distribution a listing names is a `distribution` element (line 34: "Distribution |
    // distribution_id"); its values (id, name, project...) must all be listed by include_remotes too.
    const listed = await ctx.setup('list the local distributions', async () => elements(expect2xx(await user.get('/distributions'), 'GET /distributions').xml, 'distribution'));
    const local = new Set(listed.flatMap((d) => [...nodeValues(d)]).filter(Boolean));
    if (!local.size) ctx.inconclusive('GET /distributions lists no local distribution (no <distribution> element): there is nothing include_remotes must list too');
    const all = expectServed(await user.get('/distributions/include_remotes'), 'GET /distributions/include_remotes');
    ctx.expect(elements(all.xml, 'distribution').length > 0, `GET /distributions/include_remotes lists no <distribution> although GET /distributions lists ${listed.length}: ${brief(all)}`);
    const missing = [...local].filter((v) => !xmlValues(all).has(v));
    ctx.expect(!missing.length, `GET /distributions/include_remotes leaves out what GET /distributions lists (${missing.slice(0, 5).join(', ')}): ${brief(all)}`);
  },
);

export const checks = [about, architectures, issueTrackerLifecycle, includeRemotes];
