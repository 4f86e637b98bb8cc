// build-ref: the embedded reference server of the BUILD protocol (build-service-api.md),
// a real HTTP server (fastify) on 127.0.0.1 with XML bodies and in-memory state seeded per start.
import Fastify from 'fastify';
import type { BuildFixtures, BuildUsers } from '../../src/config/types.ts';
import { Api, refuse } from './api.ts';
import { registerGeneral } from './areas/general.ts';
import { registerSources } from './areas/sources.ts';
import { registerRequests } from './areas/requests.ts';
import { registerSearch } from './areas/search.ts';
import { registerStaging } from './areas/staging.ts';
import { registerStatus } from './areas/status.ts';
import { registerBuild } from './areas/build.ts';
import { registerCatalogue } from './areas/catalogue.ts';
import { registerPeople } from './areas/people.ts';
import { registerAttributes } from './areas/attributes.ts';
import { BUILD_FAULTS, isBuildFault, type BuildFault } from './faults.ts';
import { seedWorld } from './world.ts';
import { BUILD_FUZZ_FAULTS, installHttpFuzzFaults } from '../http-fuzz-faults.ts';
import { installServerModes, type ServerModeOptions } from '../server-modes.ts';

export interface BuildReferenceOptions {
  host?: string;
  port?: number;
  faults?: readonly string[];
  /** Run as the variant: every choice the document leaves open taken the other way (docs/open-choices.md). */
  variant?: boolean;
  /** Passwords by role and a runservice token to seed instead of random ones (`conformance serve build`). */
  passwords?: { user?: string; admin?: string; privileged?: string };
  token?: string;
  /** The proof matrix's server modes: do-nothing, accept-all, half-built, busy (targets/server-modes.ts). */
  modes?: ServerModeOptions;
}

export interface BuildReference {
  baseUrl: string;
  users: Required<BuildUsers>;
  token: string;
  fixtures: BuildFixtures;
  close(): Promise<void>;
}

export async function startBuildReference(options: BuildReferenceOptions = {}): Promise<BuildReference> {
  const unknown = (options.faults ?? []).filter((f) => !isBuildFault(f) && !Object.hasOwn(BUILD_FUZZ_FAULTS, f));
  if (unknown.length) throw new Error(`unknown build-ref fault(s): ${unknown.join(', ')}; known: ${[...Object.keys(BUILD_FAULTS), ...Object.keys(BUILD_FUZZ_FAULTS)].join(', ')}`);
  const faults = new Set((options.faults ?? []).filter(isBuildFault));
  // The variant names the document's `SVC:` attributes (line 5) as the build service does: `OBS:`.
  const { world, seeded } = seedWorld({ passwords: options.passwords, token: options.token, attributeNamespace: options.variant ? 'OBS' : 'SVC' });
  // Clients write /source and /source/ alike (osc asks for /source).
  const app = Fastify({ logger: false, bodyLimit: 8 * 1024 * 1024, routerOptions: { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true } });
  // Bodies are XML, plain text (files, _config) or binary: handlers get them as text.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));
  installHttpFuzzFaults(app, (options.faults ?? []).filter((f) => Object.hasOwn(BUILD_FUZZ_FAULTS, f)));
  installServerModes(app, options.modes ?? {}, {
    notFound: { status: 404, type: 'application/xml', body: '<status code="not_found">\n  <summary>Not found</summary>\n</status>\n' },
    ok: { status: 200, type: 'application/xml', body: '<status code="ok"/>\n' },
  });
  const api = new Api(app, world, faults, options.variant === true);
  app.setErrorHandler((err: { statusCode?: number; message: string }, _req, reply) =>
    api.sendError(reply, refuse(err.statusCode && err.statusCode < 500 ? err.statusCode : 500, 'error', err.message)),
  );
  app.setNotFoundHandler((_req, reply) => api.sendError(reply, refuse(404, 'not_found', 'no such route')));

  registerGeneral(api);
  registerSources(api);
  registerRequests(api);
  registerSearch(api);
  registerStaging(api);
  registerStatus(api);
  registerBuild(api);
  registerCatalogue(api);
  registerPeople(api);
  registerAttributes(api);

  const address = await app.listen({ host: options.host ?? '127.0.0.1', port: options.port ?? 0 });
  return { baseUrl: address, users: seeded.users, token: seeded.token, fixtures: seeded.fixtures, close: () => app.close().catch(() => undefined) };
}
