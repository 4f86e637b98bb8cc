// The stateful BUILD kind `http-xml-sequence` (opt-in: `--kind http-xml-sequence`; only with
// `allow: ['destructive']`), on packages in the campaign's scratch project and on subprojects of it
// that the chain creates. build-service-api.md states no status codes ("Error response format and
// status codes in general: not shown"), so as in the BUILD checks a refusal is "not a 2xx":
//   lifecycle       package: PUT _meta ("creates if absent") -> GET _meta (the <package name> sent)
//                   -> DELETE -> not in GET /source/<project> -> GET _meta not a 2xx;
//                   project: the same with GET /source/ ("list projects") and the project's _meta
//   never-existed   GET _meta of a package or project never created: not a 2xx
//   refused-create  a PUT _meta the server refuses (a body naming another package, a wrong root
//                   element, truncated XML) leaves nothing: not listed, GET _meta not a 2xx
// The document states no rule about another user's view of a project (but `noaccess`, whose
// effect is not shown), so there is no other-account checker here.
import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { attr, elements, rootOf, type XmlNode } from '../../src/clients/xml.ts';
import { parseXml } from '../../src/clients/xml.ts';
import { UsageError } from '../../src/core/errors.ts';
import type { FuzzKind, KindContext } from '../core/kind.ts';
import type { HttpCase } from './case.ts';
import { ChainRun, judged, ok, type ChainEnv, type ChainResult } from './chain.ts';
import { buildScratchProject, selectedRoute } from './kinds.ts';
import type { HttpOutcome } from './oracles.ts';

export type BuildChecker = 'lifecycle' | 'never-existed' | 'refused-create';
export type BuildResource = 'package' | 'project';
/** How a refused-create chain's body is wrong. */
export type BadMeta = 'other-name' | 'wrong-root' | 'truncated';

export interface BuildChainSpec {
  protocol: 'build';
  checker: BuildChecker;
  resource: BuildResource;
  /** The campaign's scratch project (home:<user>:conformance-fuzz-<seed>): packages go in it, projects below it. */
  home: string;
  /** The generated part of the name (a random suffix is added per run: chains run concurrently and are replayed). */
  name: string;
  bad: BadMeta;
}

const XML = 'application/xml';

/** Every route a chain on each resource may send: a resource is chained only when all are selected. */
const CHAIN_ROUTES: Record<BuildResource, readonly string[]> = {
  package: ['PUT /source/{project}/{package}/_meta', 'GET /source/{project}/{package}/_meta', 'DELETE /source/{project}/{package}', 'GET /source/{project}'],
  project: ['PUT /source/{project}/_meta', 'GET /source/{project}/_meta', 'DELETE /source/{project}', 'GET /source'],
};

export const httpXmlSequence: FuzzKind<HttpCase> = {
  name: 'http-xml-sequence',
  protocol: 'build',
  optIn: true,
  description: "BUILD request chains on packages and subprojects of the campaign's scratch project: create-read-delete-read, names never created, refused creates (needs allow: ['destructive'])",
  arbitrary: (ctx: KindContext) => {
    if (!ctx.destructive) throw new UsageError("fuzz kind 'http-xml-sequence' changes state through chains of requests: it runs only on a target whose config has allow: ['destructive']");
    const home = buildScratchProject(ctx);
    const resources = (['package', 'package', 'project'] as const).filter((r) => CHAIN_ROUTES[r].every((route) => selectedRoute(ctx, route)));
    if (!resources.length) throw new UsageError("fuzz kind 'http-xml-sequence': neither packages nor projects have all the routes it chains inside the selection");
    return fc
      .record({
        checker: fc.constantFrom<BuildChecker>('lifecycle', 'lifecycle', 'never-existed', 'refused-create'),
        resource: fc.constantFrom<BuildResource>(...resources),
        name: fc.stringMatching(/^[a-z0-9]{1,12}$/),
        bad: fc.constantFrom<BadMeta>('other-name', 'wrong-root', 'truncated'),
      })
      .map((s): HttpCase => {
        const chain: BuildChainSpec = { protocol: 'build', home, ...s };
        const path = s.resource === 'package' ? `/source/${home}/<package>/_meta` : `/source/${home}:<project>/_meta`;
        return { method: s.checker === 'never-existed' ? 'GET' : 'PUT', path, route: `${path} (${s.checker} sequence)`, chain };
      });
  },
};

const esc = (x: string) => x.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
const metaOf = (resource: BuildResource, name: string, home: string) =>
  resource === 'package' ? `<package name="${esc(name)}" project="${esc(home)}"><title>conformance fuzz chain</title><description/></package>` : `<project name="${esc(name)}"><title>conformance fuzz chain</title><description/></project>`;
const xmlOf = (o: HttpOutcome): XmlNode | undefined => (o.res ? parseXml(o.res.text) : undefined);
/** `<entry name>` of a directory listing. */
const listed = (o: HttpOutcome, name: string): boolean => elements(xmlOf(o), 'entry').some((e) => attr(e, 'name') === name);

export async function runBuildChain(spec: BuildChainSpec, env: ChainEnv): Promise<ChainResult> {
  const run = new ChainRun(env, spec.checker);
  const suffix = randomBytes(4).toString('hex');
  const name = spec.resource === 'package' ? `cfz-${spec.name}-${suffix}` : `${spec.home}:cfz-${spec.name}-${suffix}`;
  const where = spec.resource === 'package' ? `/source/${spec.home}/${name}` : `/source/${name}`;
  const meta = `${where}/_meta`;
  const listing = spec.resource === 'package' ? `/source/${spec.home}` : '/source/';
  const what = `the ${spec.resource} ${name}`;

  if (spec.checker === 'never-existed') {
    const read = await run.step('GET', meta);
    if (judged(read) && ok(read)) return run.fail('sequence-unknown-id-404', `GET _meta of a ${spec.resource} never created -> ${read.res!.status}`, `GET ${meta} of ${what}, never created, answered ${read.res!.status}: a success for a ${spec.resource} that does not exist`);
    return run.done();
  }

  if (spec.checker === 'refused-create') {
    const good = metaOf(spec.resource, name, spec.home);
    const body = spec.bad === 'other-name' ? metaOf(spec.resource, `${name}-other`, spec.home) : spec.bad === 'wrong-root' ? good.replace(/^<(package|project)/, '<directory').replace(/<\/(package|project)>$/, '</directory>') : good.slice(0, good.length >> 1);
    const put = await run.step('PUT', meta, { body: { text: body, type: XML } });
    if (ok(put) && spec.resource === 'project') env.created(where);
    // Accepted, or refused at a gate or with a 5xx: not a refused create (the single-request kinds judge a 5xx).
    if (!judged(put) || ok(put)) return run.done();
    const list = await run.step('GET', listing);
    if (ok(list) && listed(list, name)) return run.fail('sequence-refused-create', `${spec.resource} create refused -> listed`, `PUT ${meta} was refused (${put.res!.status}), and GET ${listing} lists ${what}`);
    const read = await run.step('GET', meta);
    if (ok(read)) return run.fail('sequence-refused-create', `${spec.resource} create refused -> _meta readable`, `PUT ${meta} was refused (${put.res!.status}), and GET ${meta} answered ${read.res!.status}`);
    return run.done();
  }

  // lifecycle
  const put = await run.step('PUT', meta, { body: { text: metaOf(spec.resource, name, spec.home), type: XML } });
  if (!ok(put)) return run.done();
  if (spec.resource === 'project') env.created(where);
  const read = await run.step('GET', meta);
  if (judged(read) && !ok(read)) return run.fail('sequence-read-after-write', `GET _meta after create -> ${read.res!.status}`, `PUT ${meta} created ${what} ("creates if absent"), and GET ${meta} answered ${read.res!.status}`);
  if (!ok(read)) return run.done();
  const root = rootOf(xmlOf(read));
  if (root?.name !== spec.resource || attr(root.node, 'name') !== name) return run.fail('sequence-read-after-write', `GET _meta after create -> other document`, `GET ${meta} did not read back the <${spec.resource} name="${name}"> meta written`);
  const del = await run.step('DELETE', where);
  if (!ok(del)) return run.done();
  if (spec.resource === 'project') env.removed(where);
  const list = await run.step('GET', listing);
  if (ok(list) && listed(list, name)) return run.fail('sequence-deleted-gone', `${spec.resource} listed after DELETE`, `${what} was deleted, and GET ${listing} still lists it`);
  const gone = await run.step('GET', meta);
  if (judged(gone) && ok(gone)) return run.fail('sequence-deleted-gone', `GET _meta after DELETE -> ${gone.res!.status}`, `${what} was deleted, and GET ${meta} answered ${gone.res!.status}`);
  return run.done();
}
