// The token route of build-ref (tokens are made at /person/<userid>/token, areas/people.ts).
import { ok, param, refuse, type Api } from '../api.ts';

export function registerGeneral(api: Api): void {
  const { world } = api;
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
