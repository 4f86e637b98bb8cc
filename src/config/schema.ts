// JSON Schema of targets.config.ts, checked with ajv so that every mistake in a config gets
// one message naming the target and the field.
import { BUILD_USER_ROLES, CLOUD_TOKEN_ROLES } from './env.ts';

const timeouts = {
  type: 'object',
  additionalProperties: false,
  properties: {
    checkMs: { type: 'integer', minimum: 1 },
    connectMs: { type: 'integer', minimum: 1 },
    replyMs: { type: 'integer', minimum: 1 },
    quietMs: { type: 'integer', minimum: 1 },
    backgroundMs: { type: 'integer', minimum: 1 },
  },
} as const;

const globs = (pattern?: string) => ({ type: 'array', minItems: 1, items: { type: 'string', minLength: 1, ...(pattern ? { pattern } : {}) } });

/** `implements`: what a partial server implements (see HttpImplements in types.ts). */
const httpImplements = {
  type: 'object',
  additionalProperties: false,
  properties: {
    paths: globs('^(?:[A-Za-z]+\\s+)?[/*]'),
    methods: { type: 'array', minItems: 1, items: { enum: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'] } },
  },
} as const;
const wireImplements = { type: 'object', additionalProperties: false, properties: { terms: globs() } } as const;

const wireTarget = {
  type: 'object',
  additionalProperties: false,
  required: ['protocol'],
  properties: {
    protocol: { const: 'wire' },
    embedded: { type: 'boolean' },
    variant: { type: 'boolean' },
    host: { type: 'string', minLength: 1 },
    port: { type: 'integer', minimum: 1, maximum: 65535 },
    authKey: { type: 'string' },
    restrictedAuthKey: { type: 'string', minLength: 1 },
    faults: { type: 'array', items: { type: 'string' } },
    maxFrameBytes: { type: 'integer', minimum: 1 },
    implements: wireImplements,
    timeouts,
  },
  // An external target needs an address; an embedded one gets an ephemeral port.
  if: { not: { required: ['embedded'], properties: { embedded: { const: true } } } },
  then: { required: ['host', 'port'] },
} as const;

/** What every HTTP target (cloud, build) has besides its protocol's own fields. */
function httpTarget(protocol: string, own: Record<string, unknown>) {
  return {
    type: 'object',
    additionalProperties: false,
    required: ['protocol'],
    properties: {
      protocol: { const: protocol },
      embedded: { type: 'boolean' },
      variant: { type: 'boolean' },
      baseUrl: { type: 'string', format: 'http-url' },
      ca: { type: 'string', minLength: 1 },
      ...own,
      allow: { type: 'array', items: { enum: ['destructive', 'load', 'irreversible'] } },
      faults: { type: 'array', items: { type: 'string' } },
      maxBodyBytes: { type: 'integer', minimum: 1 },
      implements: httpImplements,
      timeouts,
    },
    // An external target needs a base URL; an embedded one gets an ephemeral port.
    if: { not: { required: ['embedded'], properties: { embedded: { const: true } } } },
    then: { required: ['baseUrl'] },
  } as const;
}

const cloudTarget = httpTarget('cloud', {
  tokens: {
    type: 'object',
    additionalProperties: false,
    properties: Object.fromEntries(CLOUD_TOKEN_ROLES.map((k) => [k, { type: 'string', minLength: 1 }])),
  },
  fixtures: {
    type: 'object',
    additionalProperties: false,
    properties: {
      transferableNodeIds: { type: 'array', items: { type: 'integer' } },
      databases: {
        type: 'object',
        additionalProperties: false,
        properties: Object.fromEntries(['active', 'failed', 'degraded', 'provisioning'].map((k) => [k, { type: 'integer' }])),
      },
      promoCode: { type: 'string' },
      secondPromoCode: { type: 'string' },
      nonNodeEntity: { type: 'object', additionalProperties: false, required: ['key', 'id'], properties: { key: { type: 'string', minLength: 1 }, id: { type: 'integer' } } },
      otherAccountAgeDays: { type: 'integer', minimum: 0 },
      filter: {
        type: 'object',
        additionalProperties: false,
        required: ['path', 'stringField', 'numberField'],
        properties: { path: { type: 'string' }, stringField: { type: 'string' }, numberField: { type: 'string' } },
      },
      oauth: {
        type: 'object',
        additionalProperties: false,
        required: ['authUrl'],
        properties: {
          authUrl: { type: 'string', format: 'http-url' },
          login: { enum: ['bearer'] },
          client: {
            type: 'object',
            additionalProperties: false,
            required: ['id', 'secret'],
            properties: { id: { type: 'string', minLength: 1 }, secret: { type: 'string', minLength: 1 }, redirectUri: { type: 'string', minLength: 1 } },
          },
        },
      },
    },
  },
});

const credentials = {
  type: 'object',
  additionalProperties: false,
  required: ['username', 'password'],
  properties: { username: { type: 'string', minLength: 1 }, password: { type: 'string' } },
} as const;

/** An object of required non-empty strings (a BUILD fixture naming several things). */
const strings = (keys: string[]) => ({ type: 'object', additionalProperties: false, required: keys, properties: Object.fromEntries(keys.map((k) => [k, { type: 'string', minLength: 1 }])) });

const buildTarget = httpTarget('build', {
  users: { type: 'object', additionalProperties: false, properties: Object.fromEntries(BUILD_USER_ROLES.map((r) => [r, credentials])) },
  token: { type: 'string', minLength: 1 },
  fixtures: {
    type: 'object',
    additionalProperties: false,
    properties: {
      ...Object.fromEntries(['project', 'package', 'repository', 'arch', 'unconfirmedUser', 'worker', 'ownedBinary', 'ownerRootProject', 'publishedProject', 'attributeNamespace'].map((k) => [k, { type: 'string', minLength: 1 }])),
      built: strings(['project', 'package', 'repository', 'arch']),
      product: strings(['project', 'package', 'name']),
      ownerRoles: { type: 'object', minProperties: 2, additionalProperties: { type: 'string', minLength: 1 } },
      ownerDevel: strings(['binary', 'develProject']),
    },
  },
});

export const configSchema = {
  type: 'object',
  required: ['targets'],
  additionalProperties: false,
  properties: {
    targets: {
      type: 'object',
      propertyNames: { pattern: '^[A-Za-z0-9][A-Za-z0-9._-]*$' },
      additionalProperties: {
        type: 'object',
        required: ['protocol'],
        properties: { protocol: { enum: ['wire', 'cloud', 'build'] } },
        allOf: [
          { if: { properties: { protocol: { const: 'wire' } } }, then: wireTarget },
          { if: { properties: { protocol: { const: 'cloud' } } }, then: cloudTarget },
          { if: { properties: { protocol: { const: 'build' } } }, then: buildTarget },
        ],
      },
    },
  },
} as const;
