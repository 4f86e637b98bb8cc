// JSON Schema of targets.config.ts, checked with ajv so that every mistake in a config gets
// one message naming the target and the field.
const timeouts = {
  type: 'object',
  additionalProperties: false,
  properties: {
    checkMs: { type: 'integer', minimum: 1 },
    connectMs: { type: 'integer', minimum: 1 },
    replyMs: { type: 'integer', minimum: 1 },
    quietMs: { type: 'integer', minimum: 1 },
  },
} as const;

const wireTarget = {
  type: 'object',
  additionalProperties: false,
  required: ['protocol'],
  properties: {
    protocol: { const: 'wire' },
    embedded: { type: 'boolean' },
    host: { type: 'string', minLength: 1 },
    port: { type: 'integer', minimum: 1, maximum: 65535 },
    authKey: { type: 'string' },
    faults: { type: 'array', items: { type: 'string' } },
    maxFrameBytes: { type: 'integer', minimum: 1 },
    timeouts,
  },
  // An external target needs an address; an embedded one gets an ephemeral port.
  if: { not: { required: ['embedded'], properties: { embedded: { const: true } } } },
  then: { required: ['host', 'port'] },
} as const;

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
        properties: { protocol: { enum: ['wire'] } },
        allOf: [{ if: { properties: { protocol: { const: 'wire' } } }, then: wireTarget }],
      },
    },
  },
} as const;
