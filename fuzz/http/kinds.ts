// The HTTP fuzz kinds:
//   http-json  CLOUD targets: request bodies derived from the JSON Schemas of the document's field
//              tables, valid then mutated; `page`/`page_size` out of range; `X-Filter` operator
//              trees from the document's operators, and malformed ones
//   http-xml   BUILD targets: XML bodies for the routes that take one, plausible then malformed,
//              deeply nested, huge, with entity expansion or external entities
import fc from 'fast-check';
import { cloudSchemas } from '../../src/schemas/cloud.ts';
import type { FuzzKind, KindContext } from '../core/kind.ts';
import type { HttpCase } from './case.ts';
import { mutatedBody, type Schema } from './json-schema-arbitrary.ts';
import { xmlBody } from './xml-arbitrary.ts';

const defs = cloudSchemas as unknown as Record<string, Schema>;

/** CLOUD routes that take a JSON body, with the schema of that body. /account/cancel is left out: it would end the campaign's account. */
const JSON_BODY_ROUTES: { method: HttpCase['method']; route: string; schema: keyof typeof cloudSchemas }[] = [
  { method: 'PUT', route: '/account/settings', schema: 'accountSettings' },
  { method: 'POST', route: '/account/oauth-clients', schema: 'oauthClientCreate' },
  { method: 'PUT', route: '/account/oauth-clients/{clientId}', schema: 'oauthClient' },
  { method: 'POST', route: '/account/users', schema: 'userCreate' },
  { method: 'PUT', route: '/account/users/{username}', schema: 'user' },
  { method: 'PUT', route: '/account/users/{username}/grants', schema: 'grants' },
  { method: 'POST', route: '/account/service-transfers', schema: 'serviceTransferCreate' },
  { method: 'POST', route: '/account/payment-methods', schema: 'paymentMethodRequest' },
  { method: 'POST', route: '/account/payments', schema: 'paymentRequest' },
  { method: 'POST', route: '/account/promo-codes', schema: 'promoCodeRequest' },
  { method: 'PUT', route: '/databases/mysql/instances/{instanceId}', schema: 'databaseUpdate' },
  { method: 'POST', route: '/databases/mysql/instances/{instanceId}/backups', schema: 'snapshotRequest' },
];

/** Paginated CLOUD collections (GET), for page, page_size and X-Filter. */
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

export const httpJson: FuzzKind<HttpCase> = {
  name: 'http-json',
  protocol: 'cloud',
  description: 'CLOUD request bodies from the document\'s schemas (valid, then one mutation each), page/page_size out of range, X-Filter trees and malformed filters',
  arbitrary: () =>
    fc.oneof(
      {
        weight: 3,
        // One arbitrary per route, built once (not inside .chain(), which would build it per case).
        arbitrary: fc.oneof(
          ...JSON_BODY_ROUTES.map((r) =>
            fc.tuple(prefix, fill(r.route), mutatedBody(defs[r.schema], defs)).map(([p, path, body]): HttpCase => ({ method: r.method, path: `${p}${path}`, route: `${p}${r.route}`, headers: { 'content-type': 'application/json' }, body: body.text, note: { mutation: body.mutation, schema: r.schema } })),
          ),
        ),
      },
      fc.tuple(prefix, fc.constantFrom(...LIST_ROUTES), fc.record({ page: pageValue, page_size: pageValue }, { requiredKeys: [] })).map(([p, route, query]): HttpCase => ({ method: 'GET', path: `${p}${route}`, route: `${p}${route}`, query, note: { mutation: 'pagination' } })),
      fc.tuple(prefix, fc.constantFrom(...LIST_ROUTES), xFilter).map(([p, route, filter]): HttpCase => ({ method: 'GET', path: `${p}${route}`, route: `${p}${route}`, headers: { 'x-filter': filter }, note: { mutation: 'X-Filter' } })),
    ),
};

/** BUILD routes that take an XML body: the route, its customary root element, and a path maker. */
function xmlRoutes(ctx: KindContext): { method: HttpCase['method']; route: string; path: string; root: string; name?: string; query?: Record<string, string> }[] {
  const home = `home:${ctx.user ?? 'user'}:fuzz`;
  return [
    { method: 'PUT', route: '/source/<project>/_meta', path: `/source/${home}/_meta`, root: 'project', name: home },
    { method: 'PUT', route: '/source/<project>/<package>/_meta', path: `/source/${home}/pkg/_meta`, root: 'package', name: 'pkg' },
    { method: 'POST', route: '/request?cmd=create', path: '/request', root: 'request', query: { cmd: 'create' } },
    { method: 'POST', route: '/source/<project>/_attribute/<attribute>', path: `/source/${home}/_attribute/SVC:Maintained`, root: 'attributes' },
    { method: 'POST', route: '/source/<project>/<package>?cmd=commitfilelist', path: `/source/${home}/pkg`, root: 'directory', query: { cmd: 'commitfilelist' } },
    { method: 'PUT', route: '/person/<userid>', path: `/person/${ctx.user ?? 'user'}`, root: 'person' },
    { method: 'POST', route: '/status/messages/', path: '/status/messages/', root: 'status_messages' },
    { method: 'POST', route: '/staging/<project>/excluded_requests', path: `/staging/${home}/excluded_requests`, root: 'excluded_requests' },
    { method: 'PUT', route: '/status_reports/requests/<request>/reports', path: '/status_reports/requests/1/reports', root: 'status_report' },
  ];
}

export const httpXml: FuzzKind<HttpCase> = {
  name: 'http-xml',
  protocol: 'build',
  description: 'BUILD XML bodies: plausible documents, then truncated, deeply nested, huge attributes, entity expansion, external entities, malformed',
  arbitrary: (ctx) =>
    fc.oneof(
      ...xmlRoutes(ctx).map((r) =>
        xmlBody(r.root, r.name).map((body): HttpCase => ({ method: r.method, path: r.path, route: r.route, query: r.query, headers: { 'content-type': 'application/xml' }, body: body.text, note: { mutation: body.mutation } })),
      ),
    ),
};

export const HTTP_KINDS = [httpJson, httpXml];
