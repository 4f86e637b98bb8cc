// fast-check arbitraries from the JSON Schemas of src/schemas/cloud.ts: values that satisfy a
// schema, and values that break it in one named way (wrong type, missing required field,
// boundary length, huge number, unicode, extra field). It covers the keywords those schemas use
// (type, properties, required, enum, minLength/maxLength, pattern, minimum, items/minItems,
// anyOf, $ref to a sibling schema); a keyword it does not know generates any JSON value.
import fc from 'fast-check';
import { anyUnicode } from '../core/any-unicode.ts';

export type Schema = Record<string, unknown>;
type Defs = Record<string, Schema>;


const LABEL_CHARS = [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'];

/** Strings a pattern-constrained field accepts (this generator knows the label rule only as "letters and digits"). */
function stringFor(s: Schema): fc.Arbitrary<string> {
  const min = (s.minLength as number | undefined) ?? 0;
  const max = (s.maxLength as number | undefined) ?? Math.max(min, 24);
  if (s.pattern) return fc.array(fc.constantFrom(...LABEL_CHARS), { minLength: Math.max(min, 1), maxLength: Math.min(max, 40) }).map((cs) => cs.join(''));
  if (s.format === 'uuid') return fc.uuid();
  return fc.string({ minLength: min, maxLength: Math.min(max, 64) });
}

/** Values that satisfy `schema`. */
export function validValue(schema: Schema, defs: Defs, depth = 0): fc.Arbitrary<unknown> {
  if (schema.$ref) return validValue(defs[schema.$ref as string], defs, depth);
  if (schema.enum) return fc.constantFrom(...(schema.enum as unknown[]));
  if (schema.anyOf) return fc.oneof(...(schema.anyOf as Schema[]).map((s) => validValue(s, defs, depth)));
  switch (schema.type) {
    case 'object': {
      const props = (schema.properties ?? {}) as Record<string, Schema>;
      const required = (schema.required ?? []) as string[];
      const entries = Object.entries(props).map(([k, s]) => [k, validValue(s, defs, depth + 1)] as const);
      return fc.record(Object.fromEntries(entries), { requiredKeys: required.filter((k) => k in props) });
    }
    case 'array':
      return fc.array(validValue((schema.items ?? {}) as Schema, defs, depth + 1), { minLength: (schema.minItems as number) ?? 0, maxLength: 4 });
    case 'string':
      return stringFor(schema);
    case 'integer':
      return fc.integer({ min: (schema.minimum as number) ?? -1000, max: (schema.maximum as number) ?? 100_000 });
    case 'number':
      return fc.double({ min: (schema.minimum as number) ?? -1e6, max: 1e6, noNaN: true });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    default:
      return depth > 2 ? fc.constant(null) : fc.jsonValue({ maxDepth: 2 });
  }
}

/** A value of a JSON type other than the schema's (the classic "wrong type" mutation). */
function wrongType(schema: Schema): fc.Arbitrary<unknown> {
  const others: fc.Arbitrary<unknown>[] = [];
  if (schema.type !== 'string') others.push(fc.string({ maxLength: 8 }));
  if (schema.type !== 'integer' && schema.type !== 'number') others.push(fc.integer());
  if (schema.type !== 'boolean') others.push(fc.boolean());
  if (schema.type !== 'object') others.push(fc.constant({}));
  if (schema.type !== 'array') others.push(fc.constant([]));
  others.push(fc.constant(null));
  return fc.oneof(...others);
}

/** Values at and just past the edges of a field: lengths min-1, min, max, max+1; huge and odd numbers; unicode. */
function edgeValue(schema: Schema): fc.Arbitrary<unknown> {
  if (schema.type === 'string') {
    const min = (schema.minLength as number | undefined) ?? 0;
    const max = (schema.maxLength as number | undefined) ?? 64;
    const lengths = [...new Set([0, 1, Math.max(0, min - 1), min, max, max + 1, 10_000])];
    return fc.oneof(
      fc.constantFrom(...lengths).map((n) => 'a'.repeat(n)),
      anyUnicode(70),
      fc.constantFrom('--', '__', '..', 'a--b', '-ab', 'ab-', '\u0000', '\u202e', '😀😀😀', ' ', '<script>', "' OR 1=1"),
    );
  }
  if (schema.type === 'integer' || schema.type === 'number') {
    return fc.constantFrom(-1, 0, 2 ** 31, 2 ** 53, -(2 ** 63), 1e308, 0.5, -0);
  }
  return wrongType(schema);
}

export interface MutatedBody {
  /** The body text sent (not always JSON). */
  text: string;
  mutation: string;
}

/** A body breaking `schema` in one named way, or a valid one (mutation 'valid'). */
export function mutatedBody(schema: Schema, defs: Defs): fc.Arbitrary<MutatedBody> {
  const props = Object.entries((schema.properties ?? {}) as Record<string, Schema>).map(([k, s]) => [k, s.$ref ? defs[s.$ref as string] : s] as const);
  const valid = validValue(schema, defs).map((v) => v as Record<string, unknown>);
  const json = (mutation: string) => (v: unknown): MutatedBody => ({ text: JSON.stringify(v), mutation });
  const variants: fc.Arbitrary<MutatedBody>[] = [valid.map(json('valid'))];
  // One arbitrary per field and mutation, built once: arbitraries built inside .chain() would be
  // built again for every case (fast-check's full-unicode strings are costly to build).
  for (const [k, fieldSchema] of props) {
    variants.push(
      fc.tuple(valid, wrongType(fieldSchema)).map(([v, x]) => ({ text: JSON.stringify({ ...v, [k]: x }), mutation: `wrong type for ${k}` })),
      fc.tuple(valid, edgeValue(fieldSchema)).map(([v, x]) => ({ text: JSON.stringify({ ...v, [k]: x }), mutation: `edge value for ${k}` })),
      valid.map((v) => {
        const copy = { ...v };
        delete copy[k];
        return { text: JSON.stringify(copy), mutation: `without ${k}` };
      }),
    );
  }
  variants.push(
    fc.tuple(valid, fc.string({ minLength: 1, maxLength: 8 }), fc.jsonValue({ maxDepth: 1 })).map(([v, k, x]) => ({ text: JSON.stringify({ ...v, [k]: x }), mutation: `extra field ${k}` })),
    wrongType({ type: 'object' }).map(json('not an object')),
    fc.constantFrom('', '{', '{"a":', 'null', '[]', '{"a":1,}', '\u0000', '{"a":"\\ud800"}', `${'['.repeat(5000)}${']'.repeat(5000)}`).map((text) => ({ text, mutation: 'malformed JSON' })),
  );
  return fc.oneof(...variants);
}
