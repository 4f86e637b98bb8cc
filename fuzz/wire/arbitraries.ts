// fast-check arbitraries for the WIRE messages, built from the one schema (src/clients/wire/schema.ts):
// Datum, Term (every TermType of the catalogue, random args and optargs, bounded depth) and Query
// (every QueryType, tokens beyond 2^32, global_optargs, accepts_r_json). The messages are
// structurally valid protobuf with nonsense semantics: that is what a server must survive.
import fc from 'fast-check';
import type { DatumMsg, QueryMsg, TermMsg } from '../../src/clients/wire/codec.ts';
import { DatumType, QueryType, TermType } from '../../src/clients/wire/schema.ts';
import { anyUnicode } from '../core/any-unicode.ts';

/** Every TermType number of the schema (the document's catalogue), sorted. */
export const TERM_TYPES: readonly number[] = [...new Set(Object.values(TermType))].sort((a, b) => a - b);
const QUERY_TYPES: readonly number[] = Object.values(QueryType);

/** Optional-argument names the catalogue mentions; random keys are added next to them. */
const OPTARG_NAMES = [
  'index', 'default', 'timeout', 'read_mode', 'identifier_format', 'right_bound', 'left_bound', 'conflict',
  'durability', 'return_changes', 'non_atomic', 'primary_key', 'shards', 'replicas', 'multi', 'overwrite',
  'geo_system', 'unit', 'num_vertices', 'fill', 'max_results', 'max_dist', 'float', 'data', 'method',
  'params', 'header', 'attempts', 'redirects', 'verify', 'page', 'page_limit', 'auth', 'result_format',
  'dry_run', 'emergency_repair', 'primary_replica_tag', 'nonvoting_replica_tags',
] as const;
const GLOBAL_OPTARG_NAMES = ['noreply', 'profile', 'db', 'durability', 'read_mode', 'array_limit'] as const;

export interface WireArbitraryOptions {
  /** Deepest nesting of terms (and of datums inside them). */
  maxDepth?: number;
  /** Most positional arguments per term. */
  maxArgs?: number;
}

/** Numbers a query engine trips on: zero, negatives, huge, NaN, infinities, integers. */
const number = fc.oneof(
  { arbitrary: fc.integer({ min: -3, max: 1100 }), weight: 4 },
  { arbitrary: fc.double(), weight: 2 },
  { arbitrary: fc.constantFrom(0, -0, 1, -1, 999, 1000, 1001, 2 ** 31, 2 ** 32, 2 ** 53, Number.MAX_VALUE), weight: 2 },
);
const text = fc.oneof({ arbitrary: fc.string({ maxLength: 12 }), weight: 4 }, { arbitrary: anyUnicode(24), weight: 1 });

export function datumArbitrary(maxDepth = 3): fc.Arbitrary<DatumMsg> {
  const { datum } = fc.letrec<{ datum: DatumMsg }>((tie) => ({
    datum: fc.oneof(
      { maxDepth, depthSize: 'small', withCrossShrink: true },
      fc.constant<DatumMsg>({ type: DatumType.R_NULL }),
      fc.boolean().map((r_bool): DatumMsg => ({ type: DatumType.R_BOOL, r_bool })),
      number.map((r_num): DatumMsg => ({ type: DatumType.R_NUM, r_num })),
      text.map((r_str): DatumMsg => ({ type: DatumType.R_STR, r_str })),
      fc.array(tie('datum'), { maxLength: 4 }).map((r_array): DatumMsg => ({ type: DatumType.R_ARRAY, r_array })),
      fc
        .array(fc.record({ key: text, val: tie('datum') }), { maxLength: 3 })
        .map((r_object): DatumMsg => ({ type: DatumType.R_OBJECT, r_object })),
      // R_JSON in a query, valid JSON or not; and datums whose type disagrees with the field set.
      fc.oneof(fc.json({ maxDepth: 1 }), text).map((r_str): DatumMsg => ({ type: DatumType.R_JSON, r_str })),
      fc
        .record({ type: fc.option(fc.integer({ min: 0, max: 9 }), { nil: undefined }), r_num: number, r_str: text }, { requiredKeys: [] })
        .map((d): DatumMsg => d),
    ),
  }));
  return datum;
}

export function termArbitrary({ maxDepth = 4, maxArgs = 4 }: WireArbitraryOptions = {}): fc.Arbitrary<TermMsg> {
  const leafDatum = datumArbitrary(2);
  const termType = fc.oneof(
    { arbitrary: fc.constantFrom(...TERM_TYPES), weight: 20 },
    // Numbers outside the enum: still a valid varint on the wire.
    { arbitrary: fc.constantFrom(0, 4, 9, 199, 1000, 2 ** 31 - 1), weight: 1 },
  );
  const optargKey = fc.oneof({ arbitrary: fc.constantFrom(...OPTARG_NAMES), weight: 3 }, { arbitrary: text, weight: 1 });
  const { term } = fc.letrec<{ term: TermMsg }>((tie) => ({
    term: fc.oneof(
      { maxDepth, depthSize: 'small', withCrossShrink: true },
      leafDatum.map((datum): TermMsg => ({ type: TermType.DATUM, datum })),
      fc
        .record(
          {
            type: termType,
            args: fc.array(tie('term'), { maxLength: maxArgs }),
            optargs: fc.array(fc.record({ key: optargKey, val: tie('term') }), { maxLength: 2 }),
            datum: leafDatum,
          },
          { requiredKeys: ['type', 'args'] },
        )
        .map((t): TermMsg => t),
    ),
  }));
  return term;
}

/** Tokens: small, around 2^32 and 2^53, up to the int64 limits (negative ones included). */
export const tokenArbitrary: fc.Arbitrary<bigint> = fc.oneof(
  fc.bigInt({ min: 1n, max: 1000n }),
  fc.bigInt({ min: 2n ** 32n - 4n, max: 2n ** 32n + 4n }),
  fc.bigInt({ min: 2n ** 53n - 2n, max: 2n ** 53n + 2n }),
  fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
);

export function queryArbitrary(options: WireArbitraryOptions = {}): fc.Arbitrary<QueryMsg> {
  const term = termArbitrary(options);
  // Global optarg values are terms too, but shallow ones: they are evaluated far less than the query.
  const globalOptargs = fc.array(
    fc.record({ key: fc.oneof(fc.constantFrom(...GLOBAL_OPTARG_NAMES), text), val: termArbitrary({ ...options, maxDepth: 2 }) }),
    { maxLength: 2 },
  );
  return fc
    .record(
      {
        type: fc.oneof({ arbitrary: fc.constantFrom(QueryType.START, QueryType.START, QueryType.START, ...QUERY_TYPES), weight: 12 }, { arbitrary: fc.constantFrom(0, 6, 99), weight: 1 }),
        query: term,
        token: tokenArbitrary,
        OBSOLETE_noreply: fc.boolean(),
        accepts_r_json: fc.boolean(),
        global_optargs: globalOptargs,
      },
      // Every query gets a term, even the types that should not carry one: nonsense semantics.
      { requiredKeys: ['type', 'token', 'query'] },
    )
    .map((q): QueryMsg => q);
}
