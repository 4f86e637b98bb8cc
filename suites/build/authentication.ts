// Section "Authentication" of build-service-api.md.
import { check } from '../../src/core/check.ts';
import { authenticationControl, brief, deleteProject, expectNot2xx, expectServed, notServed, routeServed, withScratchProject } from './support.ts';

const section = 'Authentication';
const file = 'build-service-api.md';

export const basicRequired = check(
  {
    id: 'build.authentication.basic-required',
    title: 'Without an Authorization header a request is refused; with Basic credentials it is served',
    protocol: 'build',
    section,
    level: 'MUST',
    spec: { file, line: 168, quote: 'Only authenticated users may access the API, by an HTTP Basic Authorization header' },
    touches: ['GET /about'],
    faults: ['anonymous-allowed'],
  },
  async (ctx) => {
    // The positive control first: with Basic credentials the route is served, so a refusal below is
    // about the missing header, not a route this server lacks.
    expectServed(await ctx.build.as('user').get('/about'), 'GET /about with the user\'s Basic credentials');
    expectNot2xx(await ctx.build.anonymous().get('/about'), 'GET /about without Authorization');
  },
);

export const wrongPasswordRefused = check(
  {
    id: 'build.authentication.wrong-password-refused',
    title: 'Basic credentials with a wrong password are refused',
    protocol: 'build',
    section,
    level: 'MUST',
    spec: { file, line: 168, quote: 'Only authenticated users may access the API' },
    touches: ['GET /about'],
    faults: ['any-password'],
  },
  async (ctx) => {
    // The positive control: the right password is accepted on the same route.
    await routeServed(ctx, 'GET /about with the user\'s right password', () => ctx.build.as('user').get('/about'), 'build.authentication.basic-required');
    const res = await ctx.build.basic(ctx.build.username('user'), 'conformance-wrong-password').get('/about');
    expectNot2xx(res, 'GET /about with a wrong password');
  },
);

export const runserviceToken = check(
  {
    id: 'build.authentication.runservice-token',
    title: 'POST /trigger/runservice takes Authorization: Token <token>, and refuses a token no one created',
    protocol: 'build',
    section,
    level: 'MUST',
    spec: { file, line: 169, quote: 'Token route: POST /trigger/runservice uses header `Authorization: Token <TOKEN_STRING>`' },
    touches: ['POST /trigger/runservice'],
    faults: ['runservice-any-token'],
  },
  async (ctx) => {
    const project = ctx.build.fixture(ctx.build.fixtures.project, 'project');
    const pkg = ctx.build.fixture(ctx.build.fixtures.package, 'package');
    // A token bound to a package takes no project/package; an unbound one needs them.
    let res = await ctx.build.withToken().post('/trigger/runservice');
    if (res.status < 200 || res.status > 299) res = await ctx.build.withToken().post('/trigger/runservice', { query: { project, package: pkg } });
    expectServed(res, 'POST /trigger/runservice with the configured token');
    const bogus = await ctx.build.withToken('conformance-not-a-token').post('/trigger/runservice', { query: { project, package: pkg } });
    expectNot2xx(bogus, 'POST /trigger/runservice with a token no one created');
  },
);

export const moveAdminOnly = check(
  {
    id: 'build.authentication.move-admin-only',
    title: 'The project move command is refused to an ordinary user; an admin\'s move of the same project is not',
    protocol: 'build',
    section,
    level: 'MUST',
    spec: { file, line: 170, quote: 'Admin-only operations: project `move`' },
    touches: ['DELETE /source/{project}', 'GET /source/{project}/_meta', 'POST /source/{project}', 'PUT /source/{project}/_meta'],
    faults: ['move-not-admin-only'],
    tags: ['destructive'],
    reliesOn: ['build.projects.meta-put-creates'],
  },
  async (ctx) => {
    await withScratchProject(ctx, async ({ caller, project }) => {
      // Line 88 names no parameter of `move`: the build service reads it as
      // POST /source/<new name>?cmd=move&oproject=<old name> (source_controller, project_command_move).
      const target = `${project}-moved`;
      const move = { cmd: 'move', oproject: project };
      const shown = `POST /source/${target}?cmd=move&oproject=${project}`;
      const admin = ctx.build.target.users.admin ? ctx.build.as('admin') : undefined;
      // The control of a move let through (authenticationControl): the scratch project's meta,
      // read before the move while the project still has its name, is refused without credentials.
      const authenticates = await authenticationControl(ctx, caller, `/source/${project}/_meta`);
      try {
        const byUser = await caller.post(`/source/${target}`, { query: move });
        authenticates(byUser, `${shown} as an ordinary user`);
        expectNot2xx(byUser, `${shown} as an ordinary user`);
        if (!admin) {
          // Without the admin's control, an answer saying the route is not served tells nothing.
          notServed(byUser, `${shown} as an ordinary user`);
          return ctx.note('no users.admin configured: the refusal was not compared with an admin\'s move of the same project');
        }
        // The positive control: the same move by an admin is not refused, so the refusal above was
        // for lack of permission, not for the other reason line 88 gives ("schedulers must be stopped").
        const byAdmin = await admin.post(`/source/${target}`, { query: move });
        if (byAdmin.status < 200 || byAdmin.status > 299) {
          ctx.inconclusive(`${shown} is refused to an admin too (${brief(byAdmin)}): the ordinary user's refusal cannot be told from one for another reason (line 88: "schedulers must be stopped")`);
        }
        ctx.note(`refused to the ordinary user; the admin's move answered ${byAdmin.status}`);
      } finally {
        // Whoever moved it, the project now has the new name: remove it there too.
        await deleteProject(admin ?? caller, target);
      }
    });
  },
);

export const checks = [basicRequired, wrongPasswordRefused, runserviceToken, moveAdminOnly];
