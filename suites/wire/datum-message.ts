// Section "Datum (message)" of wire-protocol.md: datum types and R_JSON.
import { fromDatum, type DatumMsg, type JsValue } from '../../src/clients/wire/codec.ts';
import { DatumType, names, nameOf } from '../../src/clients/wire/schema.ts';
import { datum, r } from '../../src/clients/wire/terms.ts';
import { check } from '../../src/core/check.ts';
import { isError, messageOf, OWNER } from './controls.ts';
import { deepEqual, expectType, received, ResponseType, show, summary, unavailableEnds, valueOf, values } from './support.ts';

const section = 'Datum (message)';
const file = 'wire-protocol.md';

/** Every datum in a tree, depth first, with its path ("[2].k"). */
function* walk(d: DatumMsg, path = ''): Generator<[string, DatumMsg]> {
  yield [path || '(top)', d];
  for (const [i, x] of (d.r_array ?? []).entries()) yield* walk(x, `${path}[${i}]`);
  for (const p of d.r_object ?? []) if (p.val) yield* walk(p.val, `${path}.${p.key}`);
}

export const typesRoundTrip = check(
  {
    id: 'wire.datum-message.types-round-trip',
    title: 'Null, booleans, numbers, strings, arrays and objects come back with their own DatumType',
    protocol: 'wire',
    section,
    level: 'MUST',
    spec: { file, line: 70, quote: 'DatumType values: R_NULL=1, R_BOOL=2, R_NUM=3 (a double), R_STR=4, R_ARRAY=5, R_OBJECT=6, R_JSON=7' },
    touches: ['term:DATUM'],
    faults: ['bool-as-num'],
  },
  async (ctx) => {
    const conn = await ctx.wire.connect();
    const sample: [string, JsValue][] = [
      ['R_NULL', null],
      ['R_BOOL', true],
      ['R_BOOL', false],
      ['R_NUM', 12.5],
      ['R_STR', 'wire ✓'],
      ['R_ARRAY', [1, 'two']],
      ['R_OBJECT', { key: 'value' }],
    ];
    const query = datum(sample.map(([, v]) => v));
    const res = await conn.start(query);
    // A server implementing no query answers nothing about datums (the same verdict as valueOf's, rubric 16).
    unavailableEnds(res, query, 'START of an array datum');
    // An ARRAY is both a DATUM and a Sequence (line 82): one R_ARRAY atom, or its items as a sequence.
    let items: DatumMsg[];
    if (res.type === ResponseType.SUCCESS_SEQUENCE) items = res.response;
    else {
      expectType(res, 'SUCCESS_ATOM', 'START of an array datum');
      ctx.expect(res.response[0]?.type === DatumType.R_ARRAY, `expected an R_ARRAY datum, got ${nameOf(names.datumType, res.response[0]?.type)}`);
      items = res.response[0]?.r_array ?? [];
    }
    ctx.expect(items.length === sample.length, `expected the ${sample.length} items of the array, got ${summary(res)}`);
    sample.forEach(([type, value], i) => {
      const got = items[i];
      ctx.expect(
        got?.type === DatumType[type as keyof typeof DatumType],
        `item ${i} (${show(value)}) should come back as ${type}, got ${got ? nameOf(names.datumType, got.type) : 'nothing'}`,
      );
      ctx.expect(deepEqual(fromDatum(got), value), `item ${i}: expected ${show(value)}, got ${show(fromDatum(got))}`);
    });
  },
);

export const numbersAreDoubles = check(
  {
    id: 'wire.datum-message.numbers-are-doubles',
    title: 'R_NUM carries doubles: fractions and large values survive unchanged',
    protocol: 'wire',
    section,
    level: 'MUST',
    spec: { file, line: 70, quote: 'R_NUM=3 (a double)' },
    touches: ['term:DATUM', 'term:DIV'],
    faults: ['num-as-int'],
  },
  async (ctx) => {
    const conn = await ctx.wire.connect();
    const sent = [0.5, -2.25, 1e300, 2 ** 53 + 2, 5e-324];
    // The doubles sent, as a datum: any server that answers queries serves DATUM.
    const got = await valueOf(conn, datum(sent), 'an array datum of doubles');
    ctx.expect(deepEqual(got, sent), `expected ${show(sent)}, got ${show(got)}`);
    // A double the server computed: DIV(1, 4) is 0.25.
    const res = await conn.start(r.term('DIV', [1, 4]));
    if (isError(res)) {
      ctx.inconclusive(`the doubles sent came back unchanged, but DIV(1, 4) was answered ${summary(res)} ${show(messageOf(res))}: no computed double to look at`, { seeAlso: OWNER.DIV });
    }
    ctx.expect(res.type === ResponseType.SUCCESS_ATOM && values(res)[0] === 0.25, `DIV(1, 4) should answer the double 0.25, got ${received(res)} ${show(values(res))}`);
  },
);

export const rJsonOnlyWhenAccepted = check(
  {
    id: 'wire.datum-message.r-json-only-when-accepted',
    title: 'No R_JSON datum is sent unless the query set accepts_r_json',
    protocol: 'wire',
    section,
    level: 'MUST',
    spec: { file, line: 70, quote: 'R_JSON is used only when accepts_r_json is true in the query' },
    touches: ['term:DATUM'],
    faults: ['r-json-always'],
  },
  async (ctx) => {
    const conn = await ctx.wire.connect();
    const value = { list: [1, 'x', null, true] };
    const judged: string[] = [];
    for (const acceptsRJson of [undefined, false]) {
      const res = await conn.start(datum(value), acceptsRJson === undefined ? {} : { acceptsRJson });
      // Any datum of any response, an error's message included, breaks the rule when it is R_JSON.
      for (const d of res.response) {
        for (const [path, item] of walk(d)) {
          ctx.expect(item.type !== DatumType.R_JSON, `accepts_r_json ${acceptsRJson ?? 'unset'}, yet datum ${path} of the ${summary(res)} answer is R_JSON`);
        }
      }
      // Only an answer carrying the value sent shows the datums the server chose: an error or an empty answer holds none of them.
      if (res.type === ResponseType.SUCCESS_ATOM && deepEqual(values(res)[0], value)) judged.push(`accepts_r_json ${acceptsRJson ?? 'unset'}`);
      else ctx.inconclusive(`the object datum sent with accepts_r_json ${acceptsRJson ?? 'unset'} was answered ${received(res)} ${show(values(res))}, not SUCCESS_ATOM holding it: no datums of its value to judge`, { seeAlso: 'wire.datum-message.types-round-trip' });
    }
    ctx.note(`no R_JSON datum with ${judged.join(' or ')}`);
  },
);

export const rJsonHoldsJson = check(
  {
    id: 'wire.datum-message.r-json-holds-json',
    title: 'An R_JSON datum holds the JSON encoding of the value in r_str',
    protocol: 'wire',
    section,
    level: 'MUST',
    spec: { file, line: 70, quote: 'r_str then holds the JSON encoding of the datum' },
    touches: ['term:DATUM'],
    faults: ['r-json-invalid'],
  },
  async (ctx) => {
    const conn = await ctx.wire.connect();
    const value = { list: [1, 'x', null, true], nested: { k: 'v' } };
    const res = await conn.start(datum(value), { acceptsRJson: true });
    unavailableEnds(res, datum(value), 'START of an object datum with accepts_r_json');
    expectType(res, 'SUCCESS_ATOM', 'START of an object datum with accepts_r_json');
    let seen = 0;
    for (const d of res.response) {
      for (const [path, item] of walk(d)) {
        if (item.type !== DatumType.R_JSON) continue;
        seen++;
        let parsed: unknown;
        try {
          parsed = JSON.parse(item.r_str ?? '');
        } catch {
          ctx.fail(`R_JSON datum ${path} holds no JSON: r_str = ${show(item.r_str)}`);
        }
        if (path === '(top)') ctx.expect(deepEqual(parsed, value), `R_JSON datum encodes ${show(parsed)}, expected ${show(value)}`);
      }
    }
    ctx.expect(deepEqual(values(res)[0], value), `expected ${show(value)}, got ${show(values(res)[0])}`);
    // accepts_r_json allows R_JSON, it does not require it (line 22): with none sent, no R_JSON text was there to examine.
    if (!seen) ctx.inconclusive('the server sent no R_JSON datum although accepts_r_json was true, so no R_JSON text could be examined');
  },
);

export const checks = [typesRoundTrip, numbersAreDoubles, rJsonOnlyWhenAccepted, rJsonHoldsJson];
