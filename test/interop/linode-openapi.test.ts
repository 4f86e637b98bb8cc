// cloud-ref against Linode's own OpenAPI description (linode/linode-api-docs openapi.yaml v4.139.0,
// the version cloud-api.md names on line 241; the part the document covers is in
// test/data/linode-openapi/). Every route of the document is driven once or more with a request
// cloud-ref takes, and each answer is validated against the response schema Linode gives for its
// status. Two figures per route: `valid` (the body conforms to the schema as written) and
// `complete` (also every property the schema lists is present, as Linode's answers carry every
// field), and how many of the fields Linode marks filterable an X-Filter on them honours. The test
// prints them per route and fails when one drops below the figure recorded after cloud-ref was
// brought in line (issue 31). Where the document states otherwise, the document wins: an answer
// with the document's status where Linode's differs (299 for the deprecated operations, line 243)
// is named with its row of docs/cloud-differences.md and its body judged against Linode's 200.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Ajv as AjvClass, ValidateFunction } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type StartedServer } from '../support/servers.ts';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Schema = { [k: string]: Json };

const spec = JSON.parse(readFileSync(new URL('../data/linode-openapi/openapi-subset.json', import.meta.url), 'utf8')) as { paths: Record<string, Record<string, Schema>>; components: Record<string, Record<string, Schema>> };

/**
 * The naming note of cloud-api.md (line 5): where Linode has a brand in an identifier the document
 * uses a neutral word (`nodes` for the compute-instance word, `monitoring` for the metrics product,
 * `cluster` for the container-cluster scope, `altpay` for the payment provider). Applied to every
 * `_`-separated part of a property name or enum value of Linode's schemas.
 */
const RENAMES: Record<string, string> = { linode: 'node', linodes: 'nodes', longview: 'monitoring', lke: 'cluster', paypal: 'altpay' };
const rename = (id: string): string => id.split('_').map((p) => RENAMES[p] ?? p).join('_');
/** Linode's path of a document path (`/account/payments/altpay` is `/account/payments/paypal`). */
const linodePath = (docPath: string): string => docPath.replace(/\/altpay(?=\/|$)/, '/paypal');

/** Formats Linode's schemas use that are checked; the others (MM/YYYY, digits, ipv4/prefix_length, datetime, url, binary) are left as annotations. */
const FORMATS: Record<string, RegExp> = {
  // Linode writes times without an offset (2018-01-01T00:01:01); the document says they are UTC (line 20).
  'date-time': /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)?$/,
  uuid: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
  email: /^[^\s@]+@[^\s@]+$/,
};

function resolve(ref: string): Schema {
  let node: unknown = spec;
  for (const part of ref.replace(/^#\//, '').split('/')) node = (node as Record<string, unknown>)[part];
  if (!node) throw new Error(`unresolved $ref ${ref}`);
  return node as Schema;
}

/**
 * Linode's OpenAPI 3.0 schema as a JSON Schema ajv validates, in one place:
 * - `$ref` inlined (pointers into a schema too: `#/components/schemas/Database/properties/id`);
 * - `nullable: true` allows null (its type or enum gains null);
 * - `oneOf` with a `discriminator` is `anyOf` (the discriminator picks one; the payment method's
 *   credit-card and Google Pay data have the same shape, so both would match);
 * - an `example` of null, or a `description` naming `null`, allows null too (Linode writes null
 *   there: percent_complete "Returns `null` for notification events");
 * - annotations dropped: `readOnly`, `writeOnly`, `x-linode-*` (kept aside: filterable fields),
 *   `discriminator`, `deprecated`, `default`, formats not in FORMATS;
 * - the document's neutral names (line 5) for Linode's brand words, in property names and enum values;
 * - `complete`: every property an object schema lists is required (Linode writes every field,
 *   null where it has no value), but those in NOT_ALWAYS_WRITTEN.
 */
function adaptSchema(schema: Schema, complete: boolean, owner = ''): Schema {
  if (typeof schema.$ref === 'string') {
    const { $ref, ...rest } = schema;
    const named = /^#\/components\/schemas\/(\w+)$/.exec($ref);
    return adaptSchema({ ...resolve($ref), ...rest }, complete, named ? named[1] : owner);
  }
  const out: Schema = {};
  for (const [k, v] of Object.entries(schema)) {
    if (k.startsWith('x-') || ['readOnly', 'writeOnly', 'discriminator', 'deprecated', 'default', 'nullable', 'required'].includes(k)) continue;
    if (k === 'format' && !(String(v) in FORMATS)) continue;
    if (k === 'properties') out.properties = Object.fromEntries(Object.entries(v as Record<string, Schema>).map(([p, s]) => [rename(p), adaptSchema(s, complete, owner && `${owner}.${p}`)]));
    else if (k === 'items' || k === 'additionalProperties' || k === 'not') out[k] = typeof v === 'object' && v !== null ? adaptSchema(v as Schema, complete, owner) : v;
    else if (k === 'allOf' || k === 'anyOf' || k === 'oneOf') out[k === 'oneOf' && schema.discriminator ? 'anyOf' : k] = (v as Schema[]).map((s) => adaptSchema(s, complete, owner));
    else if (k === 'example' || k === 'description') continue;
    else if (k === 'enum') out.enum = (v as Json[]).map((e) => (typeof e === 'string' ? rename(e) : e));
    else out[k] = v;
  }
  const required = new Set<string>(Array.isArray(schema.required) ? (schema.required as string[]).map(rename) : []);
  if (complete && out.properties) for (const p of Object.keys(out.properties as object)) if (!NOT_ALWAYS_WRITTEN[`${owner}.${p}`]) required.add(p);
  if (required.size) out.required = [...required];
  // Nullable as marked, or where Linode shows null though the schema does not say so: an example
  // of null, or a description naming `null` ("… or `null` for Longview Free").
  if (schema.nullable === true || ('example' in schema && schema.example === null) || (typeof schema.description === 'string' && schema.description.includes('`null`'))) {
    if (Array.isArray(out.enum)) out.enum = [...out.enum, null];
    if (typeof out.type === 'string') out.type = [out.type, 'null'];
    else if (out.type === undefined) return { anyOf: [out, { type: 'null' }] };
  }
  return out;
}

/**
 * Properties the `complete` figure does not require, each with the reason Linode's description
 * gives: they are written only for some objects.
 */
const NOT_ALWAYS_WRITTEN: Record<string, string> = {
  'Event.secondary_entity': 'its description: "provides additional information for events such as, but not limited to, linode_boot, linode_reboot, linode_create, and linode_clone"',
};

/** The fields Linode marks `x-linode-filterable` on the items of a list (dotted for nested: `entity.id`). */
function filterableFields(schema: Schema, prefix = ''): string[] {
  if (typeof schema.$ref === 'string') return filterableFields(resolveDeep(schema), prefix);
  const fields: string[] = [];
  for (const part of (schema.allOf as Schema[] | undefined) ?? []) fields.push(...filterableFields(part, prefix));
  for (const [p, s] of Object.entries((schema.properties as Record<string, Schema> | undefined) ?? {})) {
    const full = resolveDeep(s);
    if (full['x-linode-filterable'] === true) fields.push(`${prefix}${rename(p)}`);
    if (full.properties) fields.push(...filterableFields(full, `${prefix}${rename(p)}.`));
  }
  return fields;
}
const resolveDeep = (s: Schema): Schema => (typeof s.$ref === 'string' ? resolveDeep({ ...resolve(s.$ref), ...Object.fromEntries(Object.entries(s).filter(([k]) => k !== '$ref')) }) : s);

/** The list item schema of a list operation's 200 answer, if it is a list. */
function listItemSchema(op: Schema): Schema | undefined {
  const schema = responseSchema(op, 200);
  if (!schema) return undefined;
  const data = (s: Schema): Schema | undefined => {
    const r = resolveDeep(s);
    const d = (r.properties as Record<string, Schema> | undefined)?.data;
    if (d) return resolveDeep(d).items as Schema;
    for (const part of (r.allOf as Schema[] | undefined) ?? []) {
      const found = data(part);
      if (found) return found;
    }
    return undefined;
  };
  return data(schema);
}

/** The JSON schema Linode gives for `status` of an operation (its `default` for an error), or undefined where it describes no such answer. */
function responseSchema(op: Schema, status: number): Schema | undefined {
  const responses = op.responses as Record<string, Schema>;
  const r = responses[String(status)] ?? (status >= 400 ? responses.default : undefined);
  if (!r) return undefined;
  const full = resolveDeep(r);
  const content = full.content as Record<string, { schema?: Schema }> | undefined;
  if (!content) return {};
  return content['application/json']?.schema ?? content['image/png']?.schema ?? {};
}

let ajv: AjvClass | undefined;
const validators = new Map<string, ValidateFunction>();
function validatorFor(key: string, schema: Schema, complete: boolean): ValidateFunction {
  const id = `${key} ${complete}`;
  let v = validators.get(id);
  if (!v) {
    if (!ajv) {
      const { Ajv } = createRequire(import.meta.url)('ajv') as typeof import('ajv');
      ajv = new Ajv({ allErrors: true, strict: false });
      for (const [name, re] of Object.entries(FORMATS)) ajv.addFormat(name, re);
    }
    v = ajv.compile(adaptSchema(schema, complete));
    validators.set(id, v);
  }
  return v;
}

/**
 * What the document states otherwise (docs/cloud-differences.md): routes and statuses where the
 * document's answer is not Linode's. Such an answer is reported as the document's, and its body is
 * judged against Linode's 200 answer.
 */
const DOCUMENT_WINS: { route: string; status: number; line: number; says: string }[] = [
  { route: 'POST /account/credit-card', status: 299, line: 243, says: 'Deprecated operations answer successfully with 299 where noted: credit-card add, entity transfers' },
  ...['GET /account/entity-transfers', 'POST /account/entity-transfers', 'GET /account/entity-transfers/{token}', 'DELETE /account/entity-transfers/{token}', 'POST /account/entity-transfers/{token}/accept'].map((route) => ({ route, status: 299, line: 243, says: 'Deprecated operations answer successfully with 299 where noted: credit-card add, entity transfers' })),
];

interface Outcome {
  route: string;
  status: number;
  valid: boolean;
  complete: boolean;
  problems: string[];
  documentWins?: string;
}

interface Tally {
  checked: number;
  valid: number;
  complete: number;
}

/** The figures after cloud-ref was brought in line with Linode's description (issue 31): the test fails below them. */
// Before (cloud-ref of issue 30): reference 78 valid, 53 complete of 81, filterable 22 of 37;
// variant 78 valid, 50 complete, filterable 21 of 37. The variant takes the other side of the
// open choices (docs/open-choices.md): no active_promotions, no OAuth client secret outside
// create and reset, `canceled` (Linode's later spelling; 4.139.0 writes `cancelled`).
const FLOOR = { reference: { valid: 81, complete: 81, filters: 37 }, variant: { valid: 80, complete: 75, filters: 37 } };

function judge(method: string, docPath: string, status: number, body: unknown, contentType: string): Outcome {
  const route = `${method} ${docPath}`;
  const item = spec.paths[linodePath(docPath)];
  const op = item?.[method.toLowerCase()];
  if (!op) return { route, status, valid: false, complete: false, problems: [`Linode describes no ${method} ${linodePath(docPath)}`] };
  // Where the document wins on the status, the body is judged against Linode's 200 answer.
  const wins = DOCUMENT_WINS.find((d) => d.route === route && d.status === status);
  const schema = responseSchema(op, wins ? 200 : status);
  const documentWins = wins && `status ${status}, line ${wins.line}: "${wins.says}"`;
  if (!schema) return { route, status, valid: false, complete: false, problems: [`Linode describes no ${status} answer (${Object.keys(op.responses as object).join(', ')})`] };
  if (status === 204) return { route, status, valid: body === undefined, complete: body === undefined, problems: body === undefined ? [] : ['a body on a 204'] };
  if (contentType.startsWith('image/png')) return { route, status, valid: true, complete: true, problems: [] };
  const problems: string[] = [];
  const run = (complete: boolean) => {
    const v = validatorFor(`${route} ${status}`, schema, complete);
    const ok = v(body) as boolean;
    if (!ok) for (const e of v.errors ?? []) problems.push(`${complete ? '(complete) ' : ''}${e.instancePath || '/'} ${e.message}${e.params && 'allowedValues' in e.params ? ` ${JSON.stringify((e.params as { allowedValues: unknown }).allowedValues).slice(0, 80)}` : ''}`);
    return ok;
  };
  const valid = run(false);
  const complete = valid && run(true);
  return { route, status, valid, complete, problems: [...new Set(problems)].slice(0, 6), ...(documentWins ? { documentWins } : {}) };
}

/** Drives every route of the document on one server; returns each answer judged. */
async function drive(server: StartedServer, variant: boolean): Promise<{ outcomes: Outcome[]; filters: { route: string; field: string; ok: boolean; detail: string }[] }> {
  const { baseUrl, tokens, fixtures } = server.config as unknown as { baseUrl: string; tokens: Record<string, string>; fixtures: Record<string, unknown> & { databases: Record<string, number>; transferableNodeIds: number[] } };
  const outcomes: Outcome[] = [];
  const filters: { route: string; field: string; ok: boolean; detail: string }[] = [];
  /** One request; its answer is judged unless `judge` is false (a filtered list, a status read). */
  const call = async (method: string, docPath: string, path: string, opts: { as?: string; body?: unknown; raw?: Buffer; type?: string; prefix?: string; filter?: unknown; judge?: boolean } = {}) => {
    const headers: Record<string, string> = {};
    const token = tokens[opts.as ?? 'unrestricted'];
    if (opts.as !== 'none') headers.authorization = `Bearer ${token}`;
    if (opts.body !== undefined) headers['content-type'] = 'application/json';
    if (opts.raw) headers['content-type'] = opts.type ?? 'application/octet-stream';
    if (opts.filter !== undefined) headers['x-filter'] = JSON.stringify(opts.filter);
    const res = await fetch(`${baseUrl}/${opts.prefix ?? 'v4'}${path}`, { method, headers, body: opts.raw ? new Uint8Array(opts.raw) : opts.body === undefined ? undefined : JSON.stringify(opts.body) });
    const type = res.headers.get('content-type') ?? '';
    const text = type.startsWith('image/') ? '' : await res.text();
    const body = res.status === 204 || (!text && !type.startsWith('application/json')) ? undefined : type.includes('json') ? JSON.parse(text) : text;
    if (opts.judge !== false) outcomes.push(judge(method, docPath, res.status, body, type));
    return { status: res.status, body: body as any };
  };
  /** GET a list, judge it, then try each field Linode marks filterable with the value of the first item. */
  const list = async (docPath: string, path: string, opts: { as?: string; prefix?: string } = {}) => {
    const res = await call('GET', docPath, path, opts);
    const op = spec.paths[linodePath(docPath)]?.get;
    const itemSchema = op && listItemSchema(op);
    const first = res.body?.data?.[0];
    if (itemSchema && first) {
      for (const field of filterableFields(itemSchema)) {
        const value = field.split('.').reduce<any>((o, k) => o?.[k], first);
        if (value === undefined || value === null || typeof value === 'object') {
          filters.push({ route: `GET ${docPath}`, field, ok: false, detail: `the first item has no value for ${field}` });
          continue;
        }
        const filtered = await call('GET', docPath, path, { ...opts, filter: { [field]: value }, judge: false });
        const rows: any[] = filtered.body?.data ?? [];
        const ok = filtered.status >= 200 && filtered.status < 300 && rows.length > 0 && rows.every((r) => field.split('.').reduce<any>((o, k) => o?.[k], r) === value);
        filters.push({ route: `GET ${docPath}`, field, ok, detail: ok ? '' : `X-Filter {"${field}":${JSON.stringify(value)}} answered ${filtered.status} ${JSON.stringify(filtered.body).slice(0, 120)}` });
      }
    }
    return res;
  };

  // Account
  await call('GET', '/account', '/account');
  await call('PUT', '/account', '/account', { body: { first_name: 'Ada' } });
  await call('POST', '/account/credit-card', '/account/credit-card', { as: 'otherAccount', body: { card_number: '4111111111111111', expiry_month: 12, expiry_year: 2031, cvv: '123' } });
  const events = await list('/account/events', '/account/events');
  const eventId = events.body?.data?.[0]?.id;
  await call('GET', '/account/events/{eventId}', `/account/events/${eventId}`);
  await call('POST', '/account/events/{eventId}/read', `/account/events/${eventId}/read`);
  await call('POST', '/account/events/{eventId}/seen', `/account/events/${eventId}/seen`);
  const invoices = await list('/account/invoices', '/account/invoices');
  const invoiceId = invoices.body?.data?.[0]?.id;
  await call('GET', '/account/invoices/{invoiceId}', `/account/invoices/${invoiceId}`);
  await list('/account/invoices/{invoiceId}/items', `/account/invoices/${invoiceId}/items`);
  const logins = await list('/account/logins', '/account/logins');
  await call('GET', '/account/logins/{loginId}', `/account/logins/${logins.body?.data?.[0]?.id}`);
  await list('/account/maintenance', '/account/maintenance', { prefix: 'v4beta' });
  await list('/account/notifications', '/account/notifications');
  await call('GET', '/account/transfer', '/account/transfer');
  await call('GET', '/account/settings', '/account/settings');
  await call('PUT', '/account/settings', '/account/settings', { body: { network_helper: true } });
  await call('POST', '/account/settings/managed-enable', '/account/settings/managed-enable');

  // OAuth clients
  const client = await call('POST', '/account/oauth-clients', '/account/oauth-clients', { body: { label: 'openapi-client', redirect_uri: 'https://example.com/callback' } });
  const clientId = client.body?.id ?? client.body?.client_id;
  await list('/account/oauth-clients', '/account/oauth-clients');
  await call('GET', '/account/oauth-clients/{clientId}', `/account/oauth-clients/${clientId}`);
  await call('PUT', '/account/oauth-clients/{clientId}', `/account/oauth-clients/${clientId}`, { body: { label: 'openapi-client-2' } });
  await call('POST', '/account/oauth-clients/{clientId}/reset-secret', `/account/oauth-clients/${clientId}/reset-secret`);
  const png = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082', 'hex');
  await call('PUT', '/account/oauth-clients/{clientId}/thumbnail', `/account/oauth-clients/${clientId}/thumbnail`, { raw: png, type: 'image/png' });
  await call('GET', '/account/oauth-clients/{clientId}/thumbnail', `/account/oauth-clients/${clientId}/thumbnail`, { as: 'none' });
  await call('DELETE', '/account/oauth-clients/{clientId}', `/account/oauth-clients/${clientId}`);

  // Payment methods and payments
  await call('POST', '/account/payment-methods', '/account/payment-methods', { body: { type: 'credit_card', is_default: false, data: { card_number: '4111111111111111', expiry_month: 11, expiry_year: 2031, cvv: '123' } } });
  const methods = await list('/account/payment-methods', '/account/payment-methods');
  const extra = (methods.body?.data ?? []).find((m: { is_default?: boolean }) => m.is_default === false);
  const defaultMethod = (methods.body?.data ?? []).find((m: { is_default?: boolean }) => m.is_default === true);
  await call('GET', '/account/payment-methods/{paymentMethodId}', `/account/payment-methods/${extra?.id}`);
  await call('POST', '/account/payment-methods/{paymentMethodId}/make-default', `/account/payment-methods/${extra?.id}/make-default`);
  await call('POST', '/account/payment-methods/{paymentMethodId}/make-default', `/account/payment-methods/${defaultMethod?.id}/make-default`);
  await call('DELETE', '/account/payment-methods/{paymentMethodId}', `/account/payment-methods/${extra?.id}`);
  await call('POST', '/account/payments', '/account/payments', { body: { usd: '12.00', cvv: '123' } });
  const payments = await list('/account/payments', '/account/payments');
  await call('GET', '/account/payments/{paymentId}', `/account/payments/${payments.body?.data?.[0]?.id}`);
  await call('POST', '/account/payments/altpay', '/account/payments/altpay', { body: { usd: '5.00', redirect_url: 'https://example.com/ok', cancel_url: 'https://example.com/cancel' } });
  await call('POST', '/account/payments/altpay/execute', '/account/payments/altpay/execute', { body: { payment_id: 'PAY-1', payer_id: 'PAYER-1' } });
  await call('POST', '/account/promo-codes', '/account/promo-codes', { body: { promo_code: fixtures.promoCode } });

  // Service transfers and the deprecated entity transfers
  const nodes = [...fixtures.transferableNodeIds];
  for (const base of ['/account/service-transfers', '/account/entity-transfers']) {
    const created = await call('POST', base, base, { body: { entities: { nodes: [nodes.shift()] } } });
    await list(base, base);
    await call('GET', `${base}/{token}`, `${base}/${created.body?.token}`);
    await call('DELETE', `${base}/{token}`, `${base}/${created.body?.token}`);
    const toAccept = await call('POST', base, base, { body: { entities: { nodes: [nodes.shift()] } } });
    await call('POST', `${base}/{token}/accept`, `${base}/${toAccept.body?.token}/accept`, { as: 'otherAccount' });
    await call('GET', `${base}/{token}`, `${base}/${toAccept.body?.token}`, { as: 'otherAccount' });
  }

  // Users and grants
  await list('/account/users', '/account/users');
  await call('POST', '/account/users', '/account/users', { body: { username: 'openapi-user', email: 'openapi@example.com', restricted: true } });
  await call('GET', '/account/users/{username}', '/account/users/openapi-user');
  await call('PUT', '/account/users/{username}', '/account/users/openapi-user', { body: { email: 'openapi2@example.com' } });
  await call('GET', '/account/users/{username}/grants', '/account/users/openapi-user/grants');
  await call('PUT', '/account/users/{username}/grants', '/account/users/openapi-user/grants', { body: { global: { add_databases: true }, node: [{ id: nodes[0], permissions: 'read_only' }] } });
  await call('GET', '/account/users/{username}/grants', '/account/users/openapi-user/grants');
  await call('GET', '/account/users/{username}/grants', '/account/users/rita/grants');
  await call('GET', '/account/users/{username}/grants', '/account/users/alice/grants');
  await call('DELETE', '/account/users/{username}', '/account/users/openapi-user');

  // Managed databases
  const engines = await list('/databases/engines', '/databases/engines', { as: 'none' });
  const engineId: string = engines.body?.data?.[0]?.id ?? 'mysql/8.0.30';
  await call('GET', '/databases/engines/{engineId}', `/databases/engines/${variant ? encodeURIComponent(engineId) : engineId}`, { as: 'none' });
  await list('/databases/instances', '/databases/instances');
  await list('/databases/mongodb/instances', '/databases/mongodb/instances');
  const active = fixtures.databases.active;
  const mongo = `/databases/mongodb/instances/${active}`;
  await call('GET', '/databases/mongodb/instances/{instanceId}', mongo);
  await call('PUT', '/databases/mongodb/instances/{instanceId}', mongo, { body: { allow_list: ['203.0.113.1/32'] } });
  await waitActive(call, mongo);
  const backups = await list('/databases/mongodb/instances/{instanceId}/backups', `${mongo}/backups`);
  const backupId = backups.body?.data?.[0]?.id;
  await call('GET', '/databases/mongodb/instances/{instanceId}/backups/{backupId}', `${mongo}/backups/${backupId}`);
  await call('POST', '/databases/mongodb/instances/{instanceId}/backups', `${mongo}/backups`, { body: { label: 'openapi-snap', target: 'primary' } });
  await call('GET', '/databases/mongodb/instances/{instanceId}/credentials', `${mongo}/credentials`);
  await call('GET', '/databases/mongodb/instances/{instanceId}/ssl', `${mongo}/ssl`);
  await call('POST', '/databases/mongodb/instances/{instanceId}/patch', `${mongo}/patch`);
  await waitActive(call, mongo);
  await call('POST', '/databases/mongodb/instances/{instanceId}/backups/{backupId}/restore', `${mongo}/backups/${backupId}/restore`);
  await call('DELETE', '/databases/mongodb/instances/{instanceId}/backups/{backupId}', `${mongo}/backups/${backupId}`);
  await call('POST', '/databases/mongodb/instances/{instanceId}/credentials/reset', `${mongo}/credentials/reset`);
  await call('DELETE', '/databases/mongodb/instances/{instanceId}', `/databases/mongodb/instances/${fixtures.databases.failed}`);
  await list('/databases/mysql/instances', '/databases/mysql/instances');
  await call('POST', '/databases/mysql/instances', '/databases/mysql/instances', { body: { label: 'openapi-mysql', region: 'us-east', type: 'g6-dedicated-2', engine: 'mysql/8.0.30', cluster_size: 1 } });

  // Last: the account cancel (the throwaway account C).
  await call('POST', '/account/cancel', '/account/cancel', { as: 'cancellable', body: { comments: 'openapi test' } });
  return { outcomes, filters };
}

/** Reads a database until it is active again (the variant keeps it `updating` a moment after an update). */
async function waitActive(call: (m: string, d: string, p: string, o?: { judge?: boolean }) => Promise<{ body: any }>, path: string): Promise<void> {
  for (let i = 0; i < 50; i++) {
    const res = await call('GET', '/databases/mongodb/instances/{instanceId}', path, { judge: false });
    if (res.body?.status === 'active') return;
    await new Promise((r) => setTimeout(r, 50));
  }
}

function tally(outcomes: Outcome[]): Map<string, Tally> {
  const byRoute = new Map<string, Tally>();
  for (const o of outcomes) {
    const t = byRoute.get(o.route) ?? { checked: 0, valid: 0, complete: 0 };
    t.checked++;
    if (o.valid) t.valid++;
    if (o.complete) t.complete++;
    byRoute.set(o.route, t);
  }
  return byRoute;
}

function report(name: string, outcomes: Outcome[], filters: { route: string; field: string; ok: boolean; detail: string }[]): { valid: number; complete: number; checked: number; filters: number } {
  const lines = [`cloud-ref (${name}) against Linode's OpenAPI description v4.139.0: responses valid / complete / checked, per route`];
  for (const [route, t] of [...tally(outcomes)].sort(([a], [b]) => a.localeCompare(b))) {
    const o = outcomes.filter((x) => x.route === route);
    const notes = [...new Set(o.flatMap((x) => [...(x.documentWins ? [`the document wins (docs/cloud-differences.md): ${x.documentWins}; the body is judged against Linode's 200 answer`] : []), ...x.problems]))];
    lines.push(`  ${String(t.valid).padStart(2)} / ${String(t.complete).padStart(2)} / ${String(t.checked).padStart(2)}  ${route}${notes.length ? `\n        ${notes.join('\n        ')}` : ''}`);
  }
  const sum = { checked: outcomes.length, valid: outcomes.filter((o) => o.valid).length, complete: outcomes.filter((o) => o.complete).length, filters: filters.filter((f) => f.ok).length };
  lines.push(`  total: ${sum.valid} valid, ${sum.complete} complete of ${sum.checked} responses (of which ${outcomes.filter((o) => o.documentWins).length} answer with the document's status where Linode's differs)`);
  lines.push(`  filterable fields (x-linode-filterable) honoured: ${filters.filter((f) => f.ok).length} of ${filters.length}`);
  for (const f of filters.filter((x) => !x.ok)) lines.push(`    ${f.route} ${f.field}: ${f.detail}`);
  console.log(lines.join('\n'));
  return sum;
}

describe.sequential("cloud-ref against Linode's OpenAPI description (test/data/linode-openapi)", () => {
  for (const name of ['reference', 'variant'] as const) {
    describe(name, () => {
      let server: StartedServer;
      beforeAll(async () => {
        server = await startServer('cloud', { variant: name === 'variant' });
      });
      afterAll(async () => server?.close());

      it('answers every route of the document as Linode describes it, where the document is silent', async () => {
        const { outcomes, filters } = await drive(server, name === 'variant');
        const sum = report(name, outcomes, filters);
        expect(sum.checked).toBeGreaterThan(60);
        expect(sum.valid, 'responses valid against Linode schemas').toBeGreaterThanOrEqual(FLOOR[name].valid);
        expect(sum.complete, 'responses with every field Linode lists').toBeGreaterThanOrEqual(FLOOR[name].complete);
        expect(sum.filters, 'fields Linode marks filterable, honoured').toBeGreaterThanOrEqual(FLOOR[name].filters);
      }, 60_000);
    });
  }
});
