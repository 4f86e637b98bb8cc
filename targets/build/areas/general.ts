// About, person tokens and the token route of build-ref.
import { ok, param, refuse, type Api } from '../api.ts';

export function registerGeneral(api: Api): void {
  const { world } = api;
  api.route('GET', '/about', () => ({ xml: { about: { title: 'build-ref', description: 'Reference server of the build-service API', revision: '2.9' } } }));

  api.route('GET', '/person/:userid/token', (call) => {
    if (call.user?.login !== call.params.userid && !call.user?.admin) throw refuse(403, 'no_permission', 'tokens of another user');
    const tokens = [...world.tokens.values()].filter((t) => t.login === call.params.userid);
    return { xml: { directory: { '@count': String(tokens.length), entry: tokens.map((t) => ({ '@id': String(t.id), '@kind': t.operation, ...(t.project ? { '@project': t.project } : {}), ...(t.package ? { '@package': t.package } : {}) })) } } };
  });

  api.route('POST', '/person/:userid/token', (call) => {
    if (call.user?.login !== call.params.userid && !call.user?.admin) throw refuse(403, 'no_permission', 'tokens of another user');
    const operation = (param(call, 'operation') ?? 'runservice') as 'runservice' | 'rebuild' | 'release';
    if (!['runservice', 'rebuild', 'release', 'workflow'].includes(operation)) throw refuse(400, 'invalid_operation', `unknown operation '${operation}'`);
    const t = { id: world.nextId(), string: Math.random().toString(36).slice(2) + Math.random().toString(36).slice(2), login: call.params.userid, operation, project: param(call, 'project'), package: param(call, 'package') };
    world.tokens.set(t.string, t);
    return { xml: { status: { '@code': 'ok', summary: 'Ok', data: [{ '@name': 'token', '#text': t.string }, { '@name': 'id', '#text': String(t.id) }] } } };
  });

  api.route(
    'POST',
    '/trigger/runservice',
    (call) => {
      const token = call.token!;
      const bound = token.package !== undefined;
      if (bound && (param(call, 'project') || param(call, 'package'))) throw refuse(400, 'invalid_parameter', 'project and package must not be given for a token bound to a package');
      const project = bound ? token.project! : param(call, 'project');
      const pkg = bound ? token.package! : param(call, 'package');
      if (!project || !pkg) throw refuse(400, 'missing_parameter', 'project and package are needed for a token not bound to a package');
      const p = world.projects.get(project);
      if (!p || p.deleted || !p.packages.get(pkg)) throw refuse(404, 'not_found', `package '${project}/${pkg}' does not exist`);
      return ok();
    },
    'token',
  );
}
