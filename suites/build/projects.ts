// Section "Sources: projects" of build-service-api.md (and the lock/undelete transitions of
// "States and transitions").
import { check } from '../../src/core/check.ts';
import { attr, rootOf } from '../../src/clients/xml.ts';
import { brief, contentType, deleteProject, entryNames, expect2xx, expectNot2xx, expectServed, rereadUntil, routeServed, svcAttribute, withScratchProject, xmlValues, type Scratch } from './support.ts';

const section = 'Sources: projects';
const file = 'build-service-api.md';

export const metaPutCreates = check(
  {
    id: 'build.projects.meta-put-creates',
    title: 'PUT /source/<project>/_meta creates an absent project, readable at _meta',
    protocol: 'build',
    section,
    level: 'MUST',
    spec: { file, line: 81, quote: 'creates the project if absent' },
    touches: ['DELETE /source/{project}', 'GET /source/{project}/_meta', 'PUT /source/{project}/_meta'],
    faults: ['meta-put-ignored'],
    tags: ['destructive'],
  },
  async (ctx) => {
    // The positive control: GET _meta is served (the fixture project's meta is found), so a 404
    // for the project just created below means the PUT created nothing.
    const fixture = ctx.build.fixture(ctx.build.fixtures.project, 'project');
    await routeServed(ctx, `GET /source/${fixture}/_meta`, () => ctx.build.as('user').get(`/source/${fixture}/_meta`));
    await withScratchProject(ctx, async ({ caller, project }) => {
      const res = expect2xx(await caller.get(`/source/${project}/_meta`), `GET /source/${project}/_meta after PUT created it`);
      const root = rootOf(res.xml);
      ctx.expect(root?.name === 'project' && attr(root.node, 'name') === project, `GET /source/${project}/_meta: expected the <project name="${project}"> document written, got ${brief(res)}`);
    });
  },
);

export const deletedListing = check(
  {
    id: 'build.projects.deleted-listing',
    title: 'GET /source/?deleted lists deleted projects instead of live ones',
    protocol: 'build',
    section,
    level: 'MUST',
    spec: { file, line: 79, quote: 'GET /source/: list projects (`deleted` shows deleted projects instead)' },
    touches: ['DELETE /source/{project}', 'GET /source', 'PUT /source/{project}/_meta'],
    faults: ['deleted-listing-ignored'],
    tags: ['destructive'],
    reliesOn: ['build.projects.meta-put-creates'],
  },
  async (ctx) => {
    await withScratchProject(ctx, async ({ caller, project }) => {
      await ctx.setup(`delete ${project}`, async () => expect2xx(await caller.delete(`/source/${project}`), `DELETE /source/${project}`));
      const live = entryNames(expectServed(await caller.get('/source/'), 'GET /source/'));
      const deleted = entryNames(expectServed(await caller.get('/source/', { query: { deleted: 1 } }), 'GET /source/?deleted=1'));
      ctx.expect(!live.includes(project), `GET /source/ still lists the deleted project ${project}`);
      ctx.expect(deleted.includes(project), `GET /source/?deleted=1 does not list the deleted project ${project} (${deleted.length} entries)`);
    });
  },
);

export const undeleteRestores = check(
  {
    id: 'build.projects.undelete-restores',
    title: 'cmd=undelete restores a deleted project',
    protocol: 'build',
    section: 'States and transitions',
    level: 'MUST',
    spec: { file, line: 58, quote: '| package or project deleted | undelete | - | restored |' },
    touches: ['DELETE /source/{project}', 'GET /source/{project}/_meta', 'POST /source/{project}', 'PUT /source/{project}/_meta'],
    faults: ['undelete-noop'],
    tags: ['destructive'],
    reliesOn: ['build.projects.meta-put-creates'],
  },
  async (ctx) => {
    await withScratchProject(ctx, async ({ caller, project }) => {
      // The positive control: the project's meta is found before it is deleted.
      await routeServed(ctx, `GET /source/${project}/_meta (before the delete)`, () => caller.get(`/source/${project}/_meta`), 'build.projects.meta-put-creates');
      await ctx.setup(`delete ${project}`, async () => {
        expect2xx(await caller.delete(`/source/${project}`), `DELETE /source/${project}`);
        expectNot2xx(await caller.get(`/source/${project}/_meta`), `GET /source/${project}/_meta after DELETE`);
      });
      expectServed(await caller.post(`/source/${project}`, { query: { cmd: 'undelete' } }), `POST /source/${project}?cmd=undelete`);
      // The document does not say the project is back by the time undelete is answered: re-read.
      const after = await rereadUntil(ctx, () => caller.get(`/source/${project}/_meta`), (r) => r.status >= 200 && r.status <= 299);
      expect2xx(after, `GET /source/${project}/_meta after undelete`);
    });
  },
);

export const configIsText = check(
  {
    id: 'build.projects.config-text-plain',
    title: 'GET /source/<project>/_config returns text/plain',
    protocol: 'build',
    section,
    level: 'MUST',
    spec: { file, line: 85, quote: 'GET /source/<project>/_config (`rev` req; returns text/plain)' },
    touches: ['GET /source/{project}/_config'],
    faults: ['config-as-xml'],
  },
  async (ctx) => {
    const project = ctx.build.fixture(ctx.build.fixtures.project, 'project');
    const caller = ctx.build.as('user');
    let res = await caller.get(`/source/${project}/_config`);
    if (res.status < 200 || res.status > 299) res = await caller.get(`/source/${project}/_config`, { query: { rev: 1 } });
    expectServed(res, `GET /source/${project}/_config`);
    ctx.expect(contentType(res) === 'text/plain', `GET /source/${project}/_config: expected text/plain, got ${contentType(res) || 'no content type'}`);
  },
);

export const setFlagNeedsFlagAndStatus = check(
  {
    id: 'build.projects.set-flag-needs-flag-and-status',
    title: 'set_flag without flag and status is refused; with them it succeeds',
    protocol: 'build',
    section,
    level: 'SHOULD',
    spec: { file, line: 88, quote: '`set_flag` and `remove_flag` (at least `flag` and `status`)' },
    touches: ['DELETE /source/{project}', 'POST /source/{project}', 'PUT /source/{project}/_meta'],
    faults: ['set-flag-unchecked'],
    tags: ['destructive'],
    reliesOn: ['build.projects.meta-put-creates'],
  },
  async (ctx) => {
    await withScratchProject(ctx, async ({ caller, project }) => {
      // With them first (the positive control on the same route and command): a refusal below is
      // then about the missing parameters.
      expectServed(await caller.post(`/source/${project}`, { query: { cmd: 'set_flag', flag: 'build', status: 'disable' } }), `POST /source/${project}?cmd=set_flag&flag=build&status=disable`);
      expectNot2xx(await caller.post(`/source/${project}`, { query: { cmd: 'set_flag' } }), `POST /source/${project}?cmd=set_flag without flag and status`);
    });
  },
);

export const attributeRoundTrip = check(
  {
    id: 'build.projects.attribute-set-delete',
    title: 'POST /source/<project>/_attribute/<attribute> sets a value; DELETE removes it',
    protocol: 'build',
    section,
    level: 'MUST',
    spec: { file, line: 84, quote: 'GET, POST, DELETE /source/<project>/_attribute/<attribute> (get all or one; POST modifies as in body' },
    touches: ['DELETE /source/{project}', 'DELETE /source/{project}/_attribute/{attribute}', 'GET /source/{project}/_attribute/{attribute}', 'POST /source/{project}/_attribute/{attribute}', 'PUT /source/{project}/_meta'],
    faults: ['attribute-value-delete-noop'],
    tags: ['destructive'],
    reliesOn: ['build.projects.meta-put-creates'],
  },
  async (ctx) => {
    await withScratchProject(ctx, async ({ caller, project }) => {
      // SVC:DelegateRequestTarget is an attribute the document names (line 32), in the target's own
      // namespace (svcAttribute: line 5 neutralised it); element names are the service's own. Of
      // the three named, it is the one a project's maintainer may set with a value on the build
      // service (its seeds: SVC:Maintained takes no value and only the admin may set it).
      const attribute = svcAttribute(ctx, 'DelegateRequestTarget');
      const path = `/source/${project}/_attribute/${attribute.id}`;
      const value = `conformance-${Date.now()}`;
      // The positive control (rubric 2): the attribute route answers a read of the scratch project
      // (an attribute not set yet reads as an empty list). A server that does not serve the route
      // in that form (an Open Build Service backend answers "packid '_attribute' is illegal", a
      // 400 that is not "unknown request") leaves the rule untested: inconclusive, not failed.
      await routeServed(ctx, `GET ${path}`, () => caller.get(path));
      expectServed(await caller.post(path, { body: `<attributes><attribute namespace="${attribute.namespace}" name="${attribute.name}"><value>${value}</value></attribute></attributes>` }), `POST ${path}`);
      // Each effect may land later (rubric 6): re-read until the background budget is spent.
      const set = expect2xx(await rereadUntil(ctx, () => caller.get(path), (r) => xmlValues(r).has(value)), `GET ${path}`);
      ctx.expect(xmlValues(set).has(value), `GET ${path} does not show the value ${value} just set: ${brief(set)}`);
      expectServed(await caller.delete(path), `DELETE ${path}`);
      const after = await rereadUntil(ctx, () => caller.get(path), (r) => !xmlValues(r).has(value));
      ctx.expect(!xmlValues(after).has(value), `GET ${path} after DELETE still shows ${value}: ${brief(after)}`);
    });
  },
);

/** The signing key GET /source/<project>/_pubkey answers (its text: the document shows no format). */
async function pubkeyOf(s: Scratch, project: string): Promise<string> {
  return expect2xx(await s.caller.get(`/source/${project}/_pubkey`), `GET /source/${project}/_pubkey`).text;
}

/** POST /source/<project>?cmd=createkey as a set-up step (an instance without a signer refuses it: inconclusive). */
const createKey = (s: Scratch, project: string) =>
  s.ctx.setup(`create a signing key for ${project}`, async () => expect2xx(await s.caller.post(`/source/${project}`, { query: { cmd: 'createkey' } }), `POST /source/${project}?cmd=createkey`), {
    seeAlso: 'build.projects.createkey-replaces-key',
  });

export const pubkeyFallback = check(
  {
    id: 'build.projects.pubkey-fallback',
    title: "GET _pubkey of a project without a key of its own answers the key of the first project above it that has one",
    protocol: 'build',
    section,
    level: 'MUST',
    spec: { file, line: 87, quote: 'if none, the first in the namespace hierarchy up to the global key' },
    touches: ['DELETE /source/{project}', 'GET /source/{project}/_meta', 'GET /source/{project}/_pubkey', 'POST /source/{project}', 'PUT /source/{project}/_meta'],
    faults: ['pubkey-skips-hierarchy', 'pubkey-no-fallback'],
    tags: ['destructive'],
    reliesOn: ['build.projects.meta-put-creates'],
  },
  async (ctx) => {
    await withScratchProject(ctx, async (s) => {
      // A project below the scratch project (the namespace hierarchy is the name's `:` parts), with no key of its own.
      const sub = `${s.project}:keyless`;
      await ctx.setup(`create the project ${sub}`, async () => expect2xx(await s.caller.put(`/source/${sub}/_meta`, { body: `<project name="${sub}"><title>keyless</title><description/></project>` }), `PUT /source/${sub}/_meta`), {
        seeAlso: 'build.projects.meta-put-creates',
      });
      try {
        // What the project answered before it had a key of its own (a key above it, or none).
        const inherited = (await s.caller.get(`/source/${s.project}/_pubkey`)).text;
        await createKey(s, s.project);
        const parent = await ctx.setup(`read the key of ${s.project}`, async () => {
          // createkey's effect may land later: re-read until the project answers a key of its own.
          const key = await rereadUntil(ctx, () => pubkeyOf(s, s.project), (k) => k.trim() !== '' && k !== inherited);
          // The control: createkey gave it a key of its own, which differs from what it answered
          // before; otherwise an equal answer below tells nothing (e.g. the same body to everything).
          ctx.expect(key.trim() !== '' && key !== inherited, `GET /source/${s.project}/_pubkey after createkey answers what it answered before (${JSON.stringify(key.slice(0, 120))}): no key of its own to compare with`);
          return key;
        }, { seeAlso: 'build.projects.createkey-replaces-key' });
        // The route is served (the parent's key was just read there) and the project exists (its
        // meta is found): a refusal now, a 404 "no pubkey available" too, breaks the fallback rule.
        await routeServed(ctx, `GET /source/${sub}/_meta`, () => s.caller.get(`/source/${sub}/_meta`), 'build.projects.meta-put-creates');
        const own = expect2xx(await s.caller.get(`/source/${sub}/_pubkey`), `GET /source/${sub}/_pubkey (no key of its own; ${s.project} above it has one)`).text;
        ctx.expect(own === parent, `GET /source/${sub}/_pubkey (no key of its own) does not answer the key of ${s.project}, the first project above it with one: got ${JSON.stringify(own.slice(0, 120))}, ${s.project} has ${JSON.stringify(parent.slice(0, 120))}`);
      } finally {
        await deleteProject(s.caller, sub);
      }
    });
  },
);

export const createkeyReplaces = check(
  {
    id: 'build.projects.createkey-replaces-key',
    title: 'cmd=createkey gives the project a new key, replacing one it already has',
    protocol: 'build',
    section,
    level: 'MUST',
    spec: { file, line: 88, quote: '`createkey` (replaces an own key)' },
    touches: ['DELETE /source/{project}', 'GET /source/{project}/_pubkey', 'POST /source/{project}', 'PUT /source/{project}/_meta'],
    faults: ['createkey-keeps-key'],
    tags: ['destructive'],
    reliesOn: ['build.projects.meta-put-creates'],
  },
  async (ctx) => {
    await withScratchProject(ctx, async (s) => {
      await createKey(s, s.project);
      const first = await ctx.setup(`read the key of ${s.project}`, () => pubkeyOf(s, s.project));
      expect2xx(await s.caller.post(`/source/${s.project}`, { query: { cmd: 'createkey' } }), `POST /source/${s.project}?cmd=createkey (a second time)`);
      const second = await rereadUntil(ctx, () => pubkeyOf(s, s.project), (key) => key !== first);
      ctx.expect(second !== first, `GET /source/${s.project}/_pubkey after a second createkey still answers the first key: the own key was not replaced`);
    });
  },
);

export const checks = [metaPutCreates, deletedListing, undeleteRestores, configIsText, setFlagNeedsFlagAndStatus, attributeRoundTrip, pubkeyFallback, createkeyReplaces];
