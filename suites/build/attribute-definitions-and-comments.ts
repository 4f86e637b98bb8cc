// Section "Attribute definitions and comments" of build-service-api.md. Namespaces and definitions
// are an admin's; each check makes a namespace of its own and removes it afterwards.
import { randomBytes } from 'node:crypto';
import type { BuildCaller } from '../../src/clients/build/session.ts';
import { check, type BuildCheckContext } from '../../src/core/check.ts';
import { brief, expect2xx, expectNot2xx, expectServed, rereadUntil, rootName, withScratchProject, xmlValues } from './support.ts';

const section = 'Attribute definitions and comments';
const file = 'build-service-api.md';

/** A namespace with one attribute definition, of the check's own. Element names are the build service's own (not shown in the document). */
async function withDefinition(ctx: BuildCheckContext, body: (d: { ns: string; name: string; admin: BuildCaller }) => Promise<void>): Promise<void> {
  const admin = ctx.build.as('admin');
  const ns = `Conformance${randomBytes(3).toString('hex')}`;
  const name = 'Probe';
  await ctx.setup(`create the attribute namespace ${ns}`, async () => expect2xx(await admin.put(`/attribute/${ns}/_meta`, { body: `<namespace name="${ns}"><modifiable_by user="${ctx.build.username('user')}"/></namespace>` }), `PUT /attribute/${ns}/_meta`));
  try {
    await ctx.setup(`define the attribute ${ns}:${name}`, async () =>
      expect2xx(await admin.put(`/attribute/${ns}/${name}/_meta`, { body: `<definition name="${name}" namespace="${ns}"><count>1</count><modifiable_by user="${ctx.build.username('user')}"/></definition>` }), `PUT /attribute/${ns}/${name}/_meta`),
    );
    await body({ ns, name, admin });
  } finally {
    await admin.delete(`/attribute/${ns}/_meta`).catch(() => undefined);
  }
}

export const namespaceDelete = check(
  {
    id: 'build.attributes.namespace-delete-removes-attributes',
    title: 'DELETE of a namespace _meta removes the attributes below it: their definitions and their values in projects and packages',
    protocol: 'build',
    section,
    level: 'MUST',
    spec: { file, line: 115, quote: 'GET, PUT (body), DELETE /attribute/<namespace>/_meta (delete removes all attributes below)' },
    touches: ['DELETE /attribute/{namespace}/_meta', 'DELETE /source/{project}', 'GET /attribute/{namespace}', 'GET /attribute/{namespace}/{name}/_meta', 'GET /source/{project}/_attribute', 'GET /source/{project}/_attribute/{attribute}', 'GET /source/{project}/{package}/_attribute', 'GET /source/{project}/{package}/_attribute/{attribute}', 'POST /source/{project}/_attribute/{attribute}', 'POST /source/{project}/{package}/_attribute/{attribute}', 'PUT /attribute/{namespace}/_meta', 'PUT /attribute/{namespace}/{name}/_meta', 'PUT /source/{project}/_meta', 'PUT /source/{project}/{package}/_meta'],
    faults: ['namespace-delete-keeps-attributes'],
    tags: ['destructive'],
    reliesOn: ['build.projects.meta-put-creates', 'build.projects.attribute-set-delete'],
  },
  async (ctx) => {
    await withDefinition(ctx, async ({ ns, name, admin }) => {
      await withScratchProject(ctx, async ({ caller, project, addPackage }) => {
        const pkg = await addPackage('attributed');
        const value = `value-${randomBytes(3).toString('hex')}`;
        const holders = [`/source/${project}`, `/source/${project}/${pkg}`];
        for (const holder of holders) {
          const path = `${holder}/_attribute/${ns}:${name}`;
          await ctx.setup(`set the value of ${ns}:${name} on ${holder}`, async () => {
            expect2xx(await caller.post(path, { body: `<attributes><attribute namespace="${ns}" name="${name}"><value>${value}</value></attribute></attributes>` }), `POST ${path}`);
            const set = expect2xx(await caller.get(path), `GET ${path}`);
            ctx.expect(xmlValues(set).has(value), `GET ${path} does not show the value ${value} just set: ${brief(set)}`);
          }, { seeAlso: 'build.projects.attribute-set-delete' });
        }
        await ctx.setup(`list the attributes of ${ns}`, async () => {
          const listing = expect2xx(await admin.get(`/attribute/${ns}/`), `GET /attribute/${ns}/`);
          ctx.expect(xmlValues(listing).has(name), `GET /attribute/${ns}/ does not list ${name}, defined by PUT: ${brief(listing)}`);
        });
        // The positive controls for the reads below: before the delete, the definition is found and
        // every holder's attribute listing shows the value.
        await ctx.setup(`read ${ns}:${name} and its values before the delete`, async () => {
          expect2xx(await admin.get(`/attribute/${ns}/${name}/_meta`), `GET /attribute/${ns}/${name}/_meta`);
          for (const holder of holders) {
            const before = expect2xx(await caller.get(`${holder}/_attribute`), `GET ${holder}/_attribute`);
            ctx.expect(xmlValues(before).has(value), `GET ${holder}/_attribute does not show the value ${value} just set: ${brief(before)}`);
          }
        });
        expectServed(await admin.delete(`/attribute/${ns}/_meta`), `DELETE /attribute/${ns}/_meta`);
        // The delete may land later (rubric 6): each read is repeated until it shows the effect or
        // what is left of ctx.timeouts.backgroundMs is spent.
        const definition = await rereadUntil(ctx, () => admin.get(`/attribute/${ns}/${name}/_meta`), (r) => r.status < 200 || r.status > 299);
        expectNot2xx(definition, `GET /attribute/${ns}/${name}/_meta after its namespace was deleted`);
        // The values set below the namespace are attributes below it too: gone from every holder.
        for (const holder of holders) {
          const after = await rereadUntil(ctx, () => caller.get(`${holder}/_attribute`), (r) => !xmlValues(r).has(value));
          ctx.expect(!xmlValues(after).has(value), `GET ${holder}/_attribute still shows the value ${value} of ${ns}:${name} after the namespace ${ns} was deleted: ${brief(after)}`);
        }
      });
    });
  },
);

export const definitionDelete = check(
  {
    id: 'build.attributes.definition-delete-removes-values',
    title: 'DELETE of an attribute definition removes its values in projects',
    protocol: 'build',
    section,
    level: 'MUST',
    spec: { file, line: 115, quote: 'DELETE /attribute/<namespace>/<name>/_meta (delete removes all values in projects and packages)' },
    touches: ['DELETE /attribute/{namespace}/_meta', 'DELETE /attribute/{namespace}/{name}/_meta', 'DELETE /source/{project}', 'GET /source/{project}/_attribute/{attribute}', 'POST /source/{project}/_attribute/{attribute}', 'PUT /attribute/{namespace}/_meta', 'PUT /attribute/{namespace}/{name}/_meta', 'PUT /source/{project}/_meta'],
    faults: ['attribute-delete-keeps-values'],
    tags: ['destructive'],
    reliesOn: ['build.projects.meta-put-creates', 'build.projects.attribute-set-delete'],
  },
  async (ctx) => {
    await withDefinition(ctx, async ({ ns, name, admin }) => {
      await withScratchProject(ctx, async ({ caller, project }) => {
        const value = `value-${randomBytes(3).toString('hex')}`;
        const path = `/source/${project}/_attribute/${ns}:${name}`;
        await ctx.setup(`set the value of ${ns}:${name} on ${project}`, async () => {
          expect2xx(await caller.post(path, { body: `<attributes><attribute namespace="${ns}" name="${name}"><value>${value}</value></attribute></attributes>` }), `POST ${path}`);
          const set = expect2xx(await caller.get(path), `GET ${path}`);
          ctx.expect(xmlValues(set).has(value), `GET ${path} does not show the value ${value} just set: ${brief(set)}`);
        }, { seeAlso: 'build.projects.attribute-set-delete' });
        expectServed(await admin.delete(`/attribute/${ns}/${name}/_meta`), `DELETE /attribute/${ns}/${name}/_meta`);
        // The delete may land later (rubric 6): re-read until the value is gone or what is left of
        // ctx.timeouts.backgroundMs is spent.
        const after = await rereadUntil(ctx, () => caller.get(path), (r) => !xmlValues(r).has(value));
        ctx.expect(!xmlValues(after).has(value), `GET ${path} still shows ${value} after the definition was deleted: ${brief(after)}`);
      });
    });
  },
);

export const packageComments = check(
  {
    id: 'build.comments.package-comments',
    title: 'GET /comments/package/<project>/<package> answers with the comments of the package',
    protocol: 'build',
    section,
    level: 'SHOULD',
    spec: { file, line: 116, quote: 'GET /comments/package/:project/:pname: comments of the object.' },
    touches: ['GET /comments/package/{project}/{pname}'],
    faults: ['comments-as-status'],
  },
  async (ctx) => {
    const project = ctx.build.fixture(ctx.build.fixtures.project, 'project');
    const pkg = ctx.build.fixture(ctx.build.fixtures.package, 'package');
    const res = expectServed(await ctx.build.as('user').get(`/comments/package/${project}/${pkg}`), `GET /comments/package/${project}/${pkg}`);
    ctx.expect(res.xml !== undefined, `GET /comments/package/${project}/${pkg}: expected a structured document, got ${brief(res)}`);
    // The document shows no shape, but the comments of a package are not the bare outcome document
    // (`<status code=...>`) the service answers a command with.
    ctx.expect(rootName(res) !== 'status', `GET /comments/package/${project}/${pkg} answers with an outcome (<status>), not the comments of the package: ${brief(res)}`);
  },
);

export const checks = [namespaceDelete, definitionDelete, packageComments];
