// JSON Schemas of the CLOUD document's field tables (cloud-api.md, "Resources and their fields").
// Only what the document defines; objects it marks "not shown" are not described, and every
// object schema allows further properties (the document lists known fields, not all fields).
// Checks validate responses with them, cloud-ref validates requests with them, the fuzzer
// derives request bodies from them: one definition each.
import { createRequire } from 'node:module';
import type { Ajv as AjvClass, ErrorObject, ValidateFunction } from 'ajv';

const permission = { enum: ['read_only', 'read_write'] } as const;

/** Snapshot label: 3-64 chars of letters, digits, _ - . ; starts and ends with a letter or digit; no two dashes, underscores or periods in a row. */
export const SNAPSHOT_LABEL_PATTERN = '^(?!.*(--|__|\\.\\.))[A-Za-z0-9](?:[A-Za-z0-9_.-]*[A-Za-z0-9])?$';

export const cloudSchemas = {
  listEnvelope: {
    type: 'object',
    required: ['data', 'page', 'pages', 'results'],
    properties: {
      data: { type: 'array' },
      page: { type: 'integer', minimum: 1 },
      pages: { type: 'integer', minimum: 0 },
      results: { type: 'integer', minimum: 0 },
    },
  },
  errorBody: {
    type: 'object',
    required: ['errors'],
    properties: {
      errors: {
        type: 'array',
        minItems: 1,
        items: { type: 'object', required: ['reason'], properties: { reason: { type: 'string' }, field: { type: 'string' } } },
      },
    },
  },
  /** Errors table: 202 and 299 answers carry a `warnings` array. */
  warningsBody: {
    type: 'object',
    required: ['warnings'],
    properties: { warnings: { type: 'array' } },
  },
  accountCancelRequest: {
    type: 'object',
    properties: { comments: { type: 'string' } },
  },
  accountCancelResponse: {
    type: 'object',
    required: ['survey_link'],
    properties: { survey_link: { type: 'string', minLength: 1 } },
  },
  accountSettings: {
    type: 'object',
    properties: { network_helper: { type: 'boolean' } },
  },
  oauthClient: {
    type: 'object',
    properties: {
      label: { type: 'string' },
      redirect_uri: { type: 'string' },
      public: { type: 'boolean' },
      client_id: { type: 'string' },
      secret: { type: 'string' },
    },
  },
  oauthClientCreate: {
    type: 'object',
    required: ['label', 'redirect_uri'],
    properties: { label: { type: 'string' }, redirect_uri: { type: 'string' }, public: { type: 'boolean' } },
  },
  user: {
    type: 'object',
    properties: { username: { type: 'string' }, email: { type: 'string' }, restricted: { type: 'boolean' } },
  },
  userCreate: {
    type: 'object',
    required: ['username', 'email'],
    properties: { username: { type: 'string', minLength: 1 }, email: { type: 'string', minLength: 1 }, restricted: { type: 'boolean' } },
  },
  grants: {
    type: 'object',
    properties: {
      global: {
        type: 'object',
        properties: {
          ...Object.fromEntries(
            ['add_nodes', 'add_nodebalancers', 'add_databases', 'add_domains', 'add_monitoring', 'add_stackscripts', 'monitoring_subscription', 'add_images', 'add_volumes', 'add_firewalls', 'cancel_account'].map((k) => [k, { type: 'boolean' }]),
          ),
          account_access: { anyOf: [permission, { type: 'null' }] },
        },
      },
      ...Object.fromEntries(
        ['domain', 'image', 'node', 'monitoring', 'nodebalancer', 'stackscript', 'volume'].map((k) => [
          k,
          { type: 'array', items: { type: 'object', required: ['id', 'permissions'], properties: { id: { type: 'integer' }, permissions: { anyOf: [permission, { type: 'null' }] } } } },
        ]),
      ),
    },
  },
  serviceTransfer: {
    type: 'object',
    properties: {
      token: { type: 'string', format: 'uuid' },
      entities: { type: 'object', properties: { nodes: { type: 'array', items: { type: 'integer' } } } },
      status: { type: 'string' },
    },
  },
  serviceTransferCreate: {
    type: 'object',
    required: ['entities'],
    properties: { entities: { type: 'object', required: ['nodes'], properties: { nodes: { type: 'array', minItems: 1, items: { type: 'integer' } } } } },
  },
  creditCard: {
    type: 'object',
    required: ['card_number', 'expiry_month', 'expiry_year', 'cvv'],
    properties: { card_number: { type: 'string' }, expiry_month: { type: 'integer' }, expiry_year: { type: 'integer' }, cvv: { type: 'string' } },
  },
  paymentMethodRequest: {
    type: 'object',
    required: ['type', 'is_default', 'data'],
    properties: { type: { enum: ['credit_card'] }, is_default: { type: 'boolean' }, data: { $ref: 'creditCard' } },
  },
  paymentRequest: {
    type: 'object',
    properties: { cvv: { type: 'string' }, usd: { type: 'string', pattern: '^[0-9]+(\\.[0-9]+)?$' }, payment_method_id: { type: 'integer' } },
  },
  promoCodeRequest: {
    type: 'object',
    required: ['promo_code'],
    properties: { promo_code: { type: 'string', minLength: 1, maxLength: 32 } },
  },
  snapshotRequest: {
    type: 'object',
    required: ['label'],
    properties: {
      label: { type: 'string', minLength: 3, maxLength: 64, pattern: SNAPSHOT_LABEL_PATTERN },
      target: { enum: ['primary', 'secondary'] },
    },
  },
  databaseUpdate: {
    type: 'object',
    properties: {
      label: { type: 'string' },
      allow_list: { type: 'array', items: { type: 'string' } },
      updates: {
        type: 'object',
        properties: Object.fromEntries(['frequency', 'duration', 'hour_of_day', 'day_of_week', 'week_of_month'].map((k) => [k, {}])),
      },
    },
  },
} as const;

export type CloudSchemaName = keyof typeof cloudSchemas;

let ajv: AjvClass | undefined;
const compiled = new Map<CloudSchemaName, ValidateFunction>();

/** A validator reporting every problem at once (the document asks servers to do the same). */
export function cloudValidator(name: CloudSchemaName): ValidateFunction {
  let v = compiled.get(name);
  if (!v) {
    if (!ajv) {
      // Required on first use: listing checks never loads ajv.
      const { Ajv } = createRequire(import.meta.url)('ajv') as typeof import('ajv');
      ajv = new Ajv({ allErrors: true, strict: false });
      ajv.addFormat('uuid', /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);
      ajv.addSchema(cloudSchemas.creditCard, 'creditCard');
    }
    v = ajv.compile(cloudSchemas[name]);
    compiled.set(name, v);
  }
  return v;
}

/** The top-level field an ajv error is about ("label", "data.cvv"), or undefined for the body as a whole. */
export function fieldOf(e: ErrorObject): string | undefined {
  const path = e.instancePath.split('/').slice(1);
  if (e.keyword === 'required') path.push(String((e.params as { missingProperty: string }).missingProperty));
  return path.length ? path.join('.') : undefined;
}
