// Section "Errors" of build-service-api.md: the errors it names.
import { check } from '../../src/core/check.ts';
import { brief, entryNames, expect2xx, expectNot2xx, notServed, withScratchProject } from './support.ts';

const section = 'Errors';
const file = 'build-service-api.md';

export const specTemplateExists = check(
  {
    id: 'build.errors.spec-template-exists',
    title: 'createSpecFileTemplate fails when the spec file exists',
    protocol: 'build',
    section,
    level: 'MUST',
    spec: { file, line: 180, quote: 'package spec template creation fails if the spec file exists' },
    touches: ['DELETE /source/{project}', 'POST /source/{project}/{package}', 'PUT /source/{project}/_meta', 'PUT /source/{project}/{package}/_meta'],
    faults: ['spec-template-overwrites'],
    tags: ['destructive'],
  },
  async (ctx) => {
    await withScratchProject(ctx, async ({ caller, project, addPackage }) => {
      const pkg = await addPackage('template');
      const path = `/source/${project}/${pkg}`;
      await ctx.setup('create the spec file from the template', async () => expect2xx(await caller.post(path, { query: { cmd: 'createSpecFileTemplate' } }), `POST ${path}?cmd=createSpecFileTemplate (no spec file yet)`));
      expectNot2xx(await caller.post(path, { query: { cmd: 'createSpecFileTemplate' } }), `POST ${path}?cmd=createSpecFileTemplate again (the spec file exists)`);
    });
  },
);

export const waitservice200 = check(
  {
    id: 'build.errors.waitservice-200',
    title: 'waitservice answers 200 when the service run was successful',
    protocol: 'build',
    section,
    level: 'MUST',
    spec: { file, line: 180, quote: 'wait-service returns code 200 on success' },
    touches: ['GET /source/{project}/{package}', 'POST /source/{project}/{package}'],
    faults: ['waitservice-202'],
  },
  async (ctx) => {
    const project = ctx.build.fixture(ctx.build.fixtures.project, 'project');
    const pkg = ctx.build.fixture(ctx.build.fixtures.package, 'package');
    const user = ctx.build.as('user');
    // The positive control: the fixture package exists (its source listing names its files), so
    // an answer below is about a service run of a real package, not any request's 2xx.
    await ctx.setup(`read the source listing of ${project}/${pkg}`, async () => {
      const listing = expect2xx(await user.get(`/source/${project}/${pkg}`), `GET /source/${project}/${pkg}`);
      ctx.expect(entryNames(listing).some(Boolean), `GET /source/${project}/${pkg} names no file (no <entry name>): ${brief(listing)}`);
    });
    const res = await user.post(`/source/${project}/${pkg}`, { query: { cmd: 'waitservice' } });
    notServed(res, `POST /source/${project}/${pkg}?cmd=waitservice`);
    ctx.expect(res.status === 200, `POST /source/${project}/${pkg}?cmd=waitservice: expected 200, got ${brief(res)}`);
  },
);

export const checks = [specTemplateExists, waitservice200];
