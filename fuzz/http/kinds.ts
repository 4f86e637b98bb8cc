// The HTTP fuzz kinds:
//   http-json  CLOUD targets: request bodies for the document's routes that take JSON, derived
//              from the JSON Schemas of its field tables, valid then mutated; PUT /account with
//              country US and zips that are none (line 30); `page`/`page_size` out of range;
//              `X-Filter` operator trees from the document's operators, and malformed ones
//   http-xml   BUILD targets: XML bodies for the routes that take one, plausible then malformed,
//              deeply nested, huge, with entity expansion or external entities
//
// Every route says what it does to the target (`effect`), so that the rule of safe fuzzing is in
// one place:
//   read         changes nothing
//   scratch      changes only scratch resources the campaign creates under names it makes, and
//                removes at the end (driver.ts): a BUILD project home:<user>:conformance-fuzz-<seed>
//                and what is under it; CLOUD OAuth clients the campaign created
//   destructive  may change what the campaign did not create: money (payments, promo codes,
//                payment methods), users and grants, account settings, existing databases and
//                requests, global status messages
// Without `allow: ['destructive']` in the target's config a campaign sends only read and scratch
// routes; routes whose parameter names an existing object are sent with it bound to the
// campaign's own scratch object instead (`scratch`). With it, every route, as the document has it.
import fc from 'fast-check';
import { cloudSchemas } from '../../src/schemas/cloud.ts';
import { UsageError } from '../../src/core/errors.ts';
import type { FuzzKind, KindContext } from '../core/kind.ts';
import type { HttpCase } from './case.ts';
import { mutatedBody, type Schema } from './json-schema-arbitrary.ts';
import { xmlBody } from './xml-arbitrary.ts';

/**
 * The Account body of PUT /account (line 80: "Account (omitted fields unchanged)"): the fields
 * line 30 names, all text; its one rule, the US zip (line 30), gets cases of its own below.
 */
const ACCOUNT_FIELDS = ['address_1', 'address_2', 'city', 'company', 'country', 'email', 'first_name', 'last_name', 'phone', 'state', 'tax_id', 'zip'];
const accountSchema: Schema = { type: 'object', properties: Object.fromEntries(ACCOUNT_FIELDS.map((k) => [k, { type: 'string', maxLength: 64 }])) };

const defs: Record<string, Schema> = { ...(cloudSchemas as unknown as Record<string, Schema>), account: accountSchema };

/** What a request does to the target: see the top of this file. */
export type RouteEffect = 'read' | 'scratch' | 'destructive';

/**
 * Placeholders in a case's path that the driver replaces, when it sends the case, by the scratch
 * object the campaign created (its id is the server's, not known when cases are generated).
 */
export const SCRATCH_PLACEHOLDERS = { oauthClient: '{scratch-oauth-client}' } as const;

interface JsonRoute {
  method: HttpCase['method'];
  route: string;
  schema: keyof typeof cloudSchemas | 'account';
  effect: RouteEffect;
  /** A destructive route confined to a scratch object when its parameters name one: sent that way without `destructive`. */
  scratch?: Record<string, string>;
}

/**
 * CLOUD routes of cloud-api.md that take a JSON body, with the schema of that body (each a row of
 * the document: the line is in the comment). /account/cancel is left out: it would end the
 * campaign's account.
 */
export const JSON_BODY_ROUTES: readonly JsonRoute[] = [
  { method: 'PUT', route: '/account', schema: 'account', effect: 'destructive' }, // line 80
  { method: 'PUT', route: '/account/settings', schema: 'accountSettings', effect: 'destructive' }, // line 96
  // Creates a client: the driver records its id from the answer and deletes it at the end.
  { method: 'POST', route: '/account/oauth-clients', schema: 'oauthClientCreate', effect: 'scratch' },
  { method: 'PUT', route: '/account/oauth-clients/{clientId}', schema: 'oauthClient', effect: 'destructive', scratch: { clientId: SCRATCH_PLACEHOLDERS.oauthClient } },
  { method: 'POST', route: '/account/users', schema: 'userCreate', effect: 'destructive' },
  { method: 'PUT', route: '/account/users/{username}', schema: 'user', effect: 'destructive' },
  { method: 'PUT', route: '/account/users/{username}/grants', schema: 'grants', effect: 'destructive' },
  { method: 'POST', route: '/account/service-transfers', schema: 'serviceTransferCreate', effect: 'destructive' },
  { method: 'POST', route: '/account/payment-methods', schema: 'paymentMethodRequest', effect: 'destructive' },
  { method: 'POST', route: '/account/payments', schema: 'paymentRequest', effect: 'destructive' },
  { method: 'POST', route: '/account/promo-codes', schema: 'promoCodeRequest', effect: 'destructive' },
  // The document's managed-database update and snapshot are MongoDB's (lines 159, 162): it has no
  // such MySQL routes (line 175: everything after the MySQL create is "not shown").
  { method: 'PUT', route: '/databases/mongodb/instances/{instanceId}', schema: 'databaseUpdate', effect: 'destructive' },
  { method: 'POST', route: '/databases/mongodb/instances/{instanceId}/backups', schema: 'snapshotRequest', effect: 'destructive' },
];

/** Zips that are no US zip code however one reads "a valid US zip code" (line 30): letters, too few digits, empty. */
const NOT_US_ZIPS = ['', 'abc', '1234', 'ABCDE', '12 4', 'SW1A 1AA', 'K1A 0B1', '9021O'];

/**
 * Inputs a rule of cloud-api.md says are invalid, beside the schema mutations: PUT /account with
 * country US and a zip that is none (line 30). The acceptance oracle (oracles.ts) judges them.
 */
const ruleCases = (ctx: KindContext): fc.Arbitrary<HttpCase>[] =>
  ctx.destructive && selected(ctx, 'PUT', '/account')
    ? [
        fc.tuple(prefix, fc.constantFrom(...NOT_US_ZIPS, '90210', '12345-6789'), fc.record({ city: fc.constantFrom('Springfield', 'Ames'), state: fc.constantFrom('IL', 'IA') }, { requiredKeys: [] })).map(
          ([p, zip, rest]): HttpCase => ({ method: 'PUT', path: `${p}/account`, route: `${p}/account`, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ...rest, country: 'US', zip }), note: { mutation: NOT_US_ZIPS.includes(zip) ? 'US zip rule: no US zip' : 'US zip rule: a US zip', schema: 'account' } }),
        ),
      ]
    : [];

/** Paginated CLOUD collections (GET: effect read), for page, page_size and X-Filter. */
const LIST_ROUTES = ['/account/events', '/account/invoices', '/account/users', '/account/oauth-clients', '/account/payments', '/account/payment-methods', '/account/notifications', '/databases/instances', '/databases/engines'];

/** Fills `{param}` segments: small ids that may exist, names that may not. */
function fill(route: string): fc.Arbitrary<string> {
  const params = [...route.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
  if (!params.length) return fc.constant(route);
  const value = fc.oneof(fc.integer({ min: 0, max: 20 }).map(String), fc.constantFrom('tux', 'admin', 'nobody', '0', '-1', '99999999999999999999', 'a%2Fb', '%00'));
  return fc.tuple(...params.map(() => value)).map((vs) => params.reduce((r, p, i) => r.replace(`{${p}}`, vs[i]), route));
}

const prefix = fc.constantFrom('/v4', '/v4', '/v4', '/v4beta');

/** X-Filter values: trees of the document's operators over a few field names, and broken JSON. */
const xFilter: fc.Arbitrary<string> = (() => {
  const { tree } = fc.letrec<{ tree: unknown; leaf: unknown }>((tie) => ({
    leaf: fc.oneof(
      fc.record({ id: fc.oneof(fc.integer(), fc.string({ maxLength: 6 })) }),
      fc.record({ action: fc.string({ maxLength: 8 }) }),
      fc.constantFrom('+gt', '+gte', '+lt', '+lte', '+contains', '+neq').chain((op) => fc.record({ id: fc.record({ [op]: fc.oneof(fc.integer(), fc.string({ maxLength: 4 }), fc.constant(null)) }) })),
      fc.record({ '+order_by': fc.constantFrom('id', 'created', 'nope'), '+order': fc.constantFrom('asc', 'desc', 'sideways') }, { requiredKeys: [] }),
    ),
    tree: fc.oneof({ depthSize: 'small', withCrossShrink: true }, tie('leaf'), fc.record({ '+and': fc.array(tie('tree'), { maxLength: 3 }) }), fc.record({ '+or': fc.array(tie('tree'), { maxLength: 3 }) })),
  }));
  return fc.oneof(
    { weight: 3, arbitrary: tree.map((t) => JSON.stringify(t)) },
    fc.constantFrom('', '{', 'null', '[]', '"id"', '{"+and": 5}', '{"+or": [{"+or": [{"+or": []}]}]}', '{"id": {"+gt": "x"}}', `${'{"+and":['.repeat(200)}{}${']}'.repeat(200)}`),
  );
})();

const pageValue = fc.oneof(fc.integer({ min: -5, max: 600 }).map(String), fc.constantFrom('0', '-1', '1.5', 'abc', '', '1e9', '9007199254740993', '25', '500', '501', '24', '2000000'));

/** The route is inside what the server implements (ctx.select; everything when there is none). */
export function selected(ctx: Pick<KindContext, 'select'>, method: string, route: string): boolean {
  return ctx.select?.route?.(method, route) ?? true;
}

/** `METHOD /route` inside the selection. */
export function selectedRoute(ctx: Pick<KindContext, 'select'>, methodAndRoute: string): boolean {
  const [method, route] = methodAndRoute.split(' ');
  return selected(ctx, method, route);
}

/** A kind with nothing left to send under the selection is a usage error, not an empty campaign. */
function nonEmpty<A>(kind: string, ctx: KindContext, arbitraries: A[]): A[] {
  if (!arbitraries.length) throw new UsageError(`fuzz kind '${kind}': none of its routes is inside the selection (--include-path, --include-method, --exclude-path, implements)${ctx.destructive ? '' : " of the routes it may send without allow: ['destructive']"}; name other kinds with --kind`);
  return arbitraries;
}

/** The JSON-body routes a campaign sends, with their path makers: every route with `destructive`, else read and scratch ones only. */
function jsonRoutes(ctx: KindContext): { r: JsonRoute; path: fc.Arbitrary<string> }[] {
  return unselectedJsonRoutes(ctx).filter(({ r }) => selected(ctx, r.method, r.route));
}

function unselectedJsonRoutes(ctx: KindContext): { r: JsonRoute; path: fc.Arbitrary<string> }[] {
  if (ctx.destructive) return JSON_BODY_ROUTES.map((r) => ({ r, path: fill(r.route) }));
  return JSON_BODY_ROUTES.flatMap((r) => {
    if (r.effect !== 'destructive') return [{ r, path: fill(r.route) }];
    if (!r.scratch) return [];
    const bound = Object.entries(r.scratch).reduce((path, [param, value]) => path.replace(`{${param}}`, value), r.route);
    return [{ r, path: fc.constant(bound) }];
  });
}

export const httpJson: FuzzKind<HttpCase> = {
  name: 'http-json',
  protocol: 'cloud',
  description: 'CLOUD request bodies from the document\'s schemas (valid, then one mutation each), page/page_size out of range, X-Filter trees and malformed filters',
  arbitrary: (ctx) => {
    // One arbitrary per route, built once (not inside .chain(), which would build it per case).
    const bodies = [
      ...jsonRoutes(ctx).map(({ r, path: pathOf }) =>
        fc.tuple(prefix, pathOf, mutatedBody(defs[r.schema], defs)).map(([p, path, body]): HttpCase => ({ method: r.method, path: `${p}${path}`, route: `${p}${r.route}`, headers: { 'content-type': 'application/json' }, body: body.text, note: { mutation: body.mutation, schema: r.schema } })),
      ),
      ...ruleCases(ctx),
    ];
    const lists = LIST_ROUTES.filter((route) => selected(ctx, 'GET', route));
    const listCases = lists.length
      ? [
          fc.tuple(prefix, fc.constantFrom(...lists), fc.record({ page: pageValue, page_size: pageValue }, { requiredKeys: [] })).map(([p, route, query]): HttpCase => ({ method: 'GET', path: `${p}${route}`, route: `${p}${route}`, query, note: { mutation: 'pagination' } })),
          fc.tuple(prefix, fc.constantFrom(...lists), xFilter).map(([p, route, filter]): HttpCase => ({ method: 'GET', path: `${p}${route}`, route: `${p}${route}`, headers: { 'x-filter': filter }, note: { mutation: 'X-Filter' } })),
        ]
      : [];
    const weighted: fc.WeightedArbitrary<HttpCase>[] = [...(bodies.length ? [{ weight: 3, arbitrary: fc.oneof(...bodies) }] : []), ...listCases.map((arbitrary) => ({ weight: 1, arbitrary }))];
    return fc.oneof(...nonEmpty('http-json', ctx, weighted));
  },
};

/** The BUILD project a campaign creates, writes under, and deletes at the end. */
export function buildScratchProject(ctx: Pick<KindContext, 'user' | 'seed'>): string {
  return `home:${ctx.user ?? 'user'}:conformance-fuzz-${ctx.seed ?? 0}`;
}

interface XmlRoute {
  method: HttpCase['method'];
  route: string;
  path: string;
  root: string;
  name?: string;
  query?: Record<string, string>;
  effect: RouteEffect;
}

/** BUILD routes that take an XML body: the route, its customary root element, a path, and its effect. */
export function xmlRoutes(ctx: KindContext): XmlRoute[] {
  const home = buildScratchProject(ctx);
  return [
    { method: 'PUT', route: '/source/<project>/_meta', path: `/source/${home}/_meta`, root: 'project', name: home, effect: 'scratch' },
    { method: 'PUT', route: '/source/<project>/<package>/_meta', path: `/source/${home}/pkg/_meta`, root: 'package', name: 'pkg', effect: 'scratch' },
    // A request names any project as its target: its maintainers get it.
    { method: 'POST', route: '/request?cmd=create', path: '/request', root: 'request', query: { cmd: 'create' }, effect: 'destructive' },
    { method: 'POST', route: '/source/<project>/_attribute/<attribute>', path: `/source/${home}/_attribute/SVC:Maintained`, root: 'attributes', effect: 'scratch' },
    { method: 'POST', route: '/source/<project>/<package>?cmd=commitfilelist', path: `/source/${home}/pkg`, root: 'directory', query: { cmd: 'commitfilelist' }, effect: 'scratch' },
    // The user the campaign runs as: its own account.
    { method: 'PUT', route: '/person/<userid>', path: `/person/${ctx.user ?? 'user'}`, root: 'person', effect: 'destructive' },
    // Status messages are shown to everyone.
    { method: 'POST', route: '/status/messages/', path: '/status/messages/', root: 'status_messages', effect: 'destructive' },
    // The staging workflow of the campaign's own project.
    { method: 'POST', route: '/staging/<project>/excluded_requests', path: `/staging/${home}/excluded_requests`, root: 'excluded_requests', effect: 'scratch' },
    // A status report on an existing request.
    { method: 'PUT', route: '/status_reports/requests/<request>/reports', path: '/status_reports/requests/1/reports', root: 'status_report', effect: 'destructive' },
  ];
}

export const httpXml: FuzzKind<HttpCase> = {
  name: 'http-xml',
  protocol: 'build',
  description: 'BUILD XML bodies: plausible documents, then truncated, deeply nested, huge attributes, entity expansion, external entities, malformed',
  arbitrary: (ctx) =>
    fc.oneof(
      ...nonEmpty('http-xml', ctx, xmlRoutes(ctx)
        .filter((r) => (ctx.destructive || r.effect !== 'destructive') && selected(ctx, r.method, r.route))
        .map((r) =>
          xmlBody(r.root, r.name).map((body): HttpCase => ({ method: r.method, path: r.path, route: r.route, query: r.query, headers: { 'content-type': 'application/xml' }, body: body.text, note: { mutation: body.mutation } })),
        )),
    ),
};

/**
 * What a case does to the target, from its route and path (undefined: not a route of these
 * tables): a scratch route sent elsewhere than the campaign's scratch resources is destructive,
 * and a destructive route bound to the campaign's scratch object is scratch.
 */
export function effectOf(protocol: 'cloud' | 'build', c: Pick<HttpCase, 'method' | 'route' | 'path'>, ctx: KindContext): RouteEffect | undefined {
  if (c.method === 'GET') return 'read';
  if (protocol === 'cloud') {
    const unprefixed = (x: string) => x.replace(/^\/v4(beta)?(?=\/)/, '');
    const r = JSON_BODY_ROUTES.find((x) => x.method === c.method && x.route === unprefixed(c.route));
    if (!r) return undefined;
    if (r.effect === 'scratch' && unprefixed(c.path) !== r.route) return 'destructive';
    const bound = r.scratch && Object.entries(r.scratch).reduce((path, [param, value]) => path.replace(`{${param}}`, value), r.route);
    return bound !== undefined && unprefixed(c.path) === bound ? 'scratch' : r.effect;
  }
  const r = xmlRoutes(ctx).find((x) => x.method === c.method && x.route === c.route);
  if (r?.effect === 'scratch' && r.path !== c.path) return 'destructive';
  return r?.effect;
}

export const HTTP_KINDS = [httpJson, httpXml];
