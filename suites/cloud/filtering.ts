// The "Filtering" paragraph of section "Limits" in cloud-api.md: the X-Filter header.
// Which fields are filterable the document does not show, so the target names one list
// endpoint and a string and a number field of it (fixtures.filter).
import { isDeepStrictEqual } from 'node:util';
import { check, type CloudCheckContext } from '../../src/core/check.ts';
import { envelope, expectRefused, listAll, PAGING_OWNER, show } from './support.ts';

const section = 'Limits';
const file = 'cloud-api.md';
const LINE = 237;
/** Every item is read page by page: the paging rules (pagination.ts) are relied on, and owned there. */
const RELIES = [PAGING_OWNER, 'cloud.pagination.list-envelope'];

type Row = Record<string, unknown>;

async function setup(ctx: CloudCheckContext) {
  const f = ctx.cloud.fixture(ctx.cloud.fixtures.filter, 'filter');
  const api = ctx.cloud.as('unrestricted');
  // Every page at the default page size: the filter is what these checks are about, not page_size.
  const list = async (filter: unknown) => {
    const what = `GET /v4${f.path} X-Filter: ${JSON.stringify(filter)}`;
    return { rows: await listAll(api, f.path, what, { headers: { 'x-filter': JSON.stringify(filter) } }), what };
  };
  const all = await ctx.setup(`GET /v4${f.path} (every item, unfiltered)`, () => listAll(api, f.path, `GET /v4${f.path}`), { seeAlso: PAGING_OWNER });
  const strings = [...new Set(all.map((r) => r[f.stringField]).filter((v): v is string => typeof v === 'string'))];
  const numbers = all.map((r) => r[f.numberField]).filter((v): v is number => typeof v === 'number').sort((a, b) => a - b);
  if (strings.length < 2 || numbers.length < 3) ctx.inconclusive(`${f.path} needs at least two distinct ${f.stringField} values and three items with a number ${f.numberField} (has ${strings.length} and ${numbers.length})`);
  /** Order-insensitive identity of a set of rows, by the values of the two fixture fields (other fields, such as read or seen, may change meanwhile). */
  const key = (rows: Row[]) => rows.map((r) => JSON.stringify([r[f.stringField], r[f.numberField]])).sort().join('\n');
  return { f, api, list, all, strings, numbers, key };
}

export const fieldEquality = check(
  {
    id: 'cloud.filtering.field-equality',
    title: 'X-Filter {field: value} keeps exactly the items with that value',
    protocol: 'cloud',
    section,
    level: 'MUST',
    spec: { file, line: LINE, quote: 'keys are field names, values accepted values' },
    touches: ['GET /account/events'],
    faults: ['filter-ignored'],
    reliesOn: RELIES,
  },
  async (ctx) => {
    const { f, list, all, strings, key } = await setup(ctx);
    const { rows, what } = await list({ [f.stringField]: strings[0] });
    const expected = all.filter((r) => r[f.stringField] === strings[0]);
    ctx.expect(key(rows) === key(expected), `${what}: expected the ${expected.length} items with ${f.stringField} = ${show(strings[0])}, got ${rows.length}`);
  },
);

export const orOperator = check(
  {
    id: 'cloud.filtering.or',
    title: 'X-Filter +or keeps items matching any branch',
    protocol: 'cloud',
    section,
    level: 'MUST',
    spec: { file, line: LINE, quote: '`+or` (array, one true)' },
    touches: ['GET /account/events'],
    faults: ['filter-or-as-and'],
    reliesOn: RELIES,
  },
  async (ctx) => {
    const { f, list, all, strings, key } = await setup(ctx);
    const { rows, what } = await list({ '+or': [{ [f.stringField]: strings[0] }, { [f.stringField]: strings[1] }] });
    const expected = all.filter((r) => r[f.stringField] === strings[0] || r[f.stringField] === strings[1]);
    ctx.expect(key(rows) === key(expected), `${what}: expected ${expected.length} items (either value), got ${rows.length}`);
  },
);

export const andNested = check(
  {
    id: 'cloud.filtering.and-nested',
    title: 'X-Filter +and and nested operators combine as documented',
    protocol: 'cloud',
    section,
    level: 'MUST',
    spec: { file, line: LINE, quote: 'Operators nest arbitrarily' },
    touches: ['GET /account/events'],
    faults: ['filter-ignored', 'filter-or-as-and'],
    reliesOn: RELIES,
  },
  async (ctx) => {
    const { f, list, all, strings, numbers, key } = await setup(ctx);
    const mid = numbers[Math.floor(numbers.length / 2)];
    const filter = { '+and': [{ '+or': [{ [f.stringField]: strings[0] }, { [f.stringField]: strings[1] }] }, { [f.numberField]: { '+lte': mid } }] };
    const { rows, what } = await list(filter);
    const expected = all.filter((r) => (r[f.stringField] === strings[0] || r[f.stringField] === strings[1]) && (r[f.numberField] as number) <= mid);
    ctx.expect(key(rows) === key(expected), `${what}: expected ${expected.length} items, got ${rows.length}`);
  },
);

export const comparisons = check(
  {
    id: 'cloud.filtering.comparisons',
    title: 'X-Filter +gt, +gte, +lt, +lte compare numbers, boundaries exact',
    protocol: 'cloud',
    section,
    level: 'MUST',
    spec: { file, line: LINE, quote: '`+gt`, `+gte`, `+lt`, `+lte` (number)' },
    touches: ['GET /account/events'],
    faults: ['filter-gt-inclusive'],
    reliesOn: RELIES,
  },
  async (ctx) => {
    const { f, list, all, numbers, key } = await setup(ctx);
    const pivot = numbers[Math.floor(numbers.length / 2)];
    const tests: [string, (n: number) => boolean][] = [
      ['+gt', (n) => n > pivot],
      ['+gte', (n) => n >= pivot],
      ['+lt', (n) => n < pivot],
      ['+lte', (n) => n <= pivot],
    ];
    for (const [op, keep] of tests) {
      const { rows, what } = await list({ [f.numberField]: { [op]: pivot } });
      const expected = all.filter((r) => keep(r[f.numberField] as number));
      ctx.expect(key(rows) === key(expected), `${what}: expected ${expected.length} items, got ${rows.length}`);
    }
  },
);

export const containsAndNeq = check(
  {
    id: 'cloud.filtering.contains-neq',
    title: 'X-Filter +contains matches substrings and +neq excludes a value',
    protocol: 'cloud',
    section,
    level: 'MUST',
    spec: { file, line: LINE, quote: '`+contains` (string), `+neq` (string)' },
    touches: ['GET /account/events'],
    faults: ['filter-ignored'],
    reliesOn: RELIES,
  },
  async (ctx) => {
    const { f, list, all, strings, key } = await setup(ctx);
    const part = strings[0].slice(1, Math.max(2, strings[0].length - 1));
    const contains = await list({ [f.stringField]: { '+contains': part } });
    const expectedContains = all.filter((r) => typeof r[f.stringField] === 'string' && (r[f.stringField] as string).includes(part));
    ctx.expect(key(contains.rows) === key(expectedContains), `${contains.what}: expected ${expectedContains.length} items, got ${contains.rows.length}`);
    const neq = await list({ [f.stringField]: { '+neq': strings[0] } });
    const expectedNeq = all.filter((r) => r[f.stringField] !== strings[0]);
    ctx.expect(key(neq.rows) === key(expectedNeq), `${neq.what}: expected ${expectedNeq.length} items, got ${neq.rows.length}`);
  },
);

export const orderByDesc = check(
  {
    id: 'cloud.filtering.order-by-desc',
    title: 'X-Filter +order_by with +order desc sorts descending',
    protocol: 'cloud',
    section,
    level: 'MUST',
    spec: { file, line: LINE, quote: '`+order` (`asc` default or `desc`; requires `+order_by`)' },
    touches: ['GET /account/events'],
    faults: ['filter-order-ignored'],
    reliesOn: RELIES,
  },
  async (ctx) => {
    const { f, list } = await setup(ctx);
    const { rows, what } = await list({ '+order_by': f.numberField, '+order': 'desc' });
    const values = rows.map((r) => r[f.numberField] as number);
    const sorted = [...values].sort((a, b) => b - a);
    ctx.expect(isDeepStrictEqual(values, sorted), `${what}: ${f.numberField} values are not descending: ${show(values.slice(0, 10))}`);
  },
);

export const orderNeedsOrderBy = check(
  {
    id: 'cloud.filtering.order-needs-order-by',
    title: 'X-Filter +order without +order_by is refused',
    protocol: 'cloud',
    section,
    level: 'SHOULD',
    spec: { file, line: LINE, quote: '`+order` (`asc` default or `desc`; requires `+order_by`)' },
    touches: ['GET /account/events'],
    faults: ['order-without-order-by-accepted'],
  },
  async (ctx) => {
    const f = ctx.cloud.fixture(ctx.cloud.fixtures.filter, 'filter');
    const api = ctx.cloud.as('unrestricted');
    // Positive control: the same list takes +order with its +order_by, so a refusal of +order
    // alone is about the missing +order_by (not a list or a filter header the server lacks).
    const valid = { '+order_by': f.numberField, '+order': 'desc' };
    await ctx.setup(`GET /v4${f.path} X-Filter: ${JSON.stringify(valid)}`, async () => envelope(await api.get(f.path, { headers: { 'x-filter': JSON.stringify(valid) } }), `GET /v4${f.path} X-Filter: ${JSON.stringify(valid)}`), { seeAlso: 'cloud.filtering.order-by-desc' });
    const res = await api.get(f.path, { headers: { 'x-filter': JSON.stringify({ '+order': 'desc' }) } });
    expectRefused(res, `GET /v4${f.path} X-Filter: {"+order":"desc"}`);
  },
);

export const checks = [fieldEquality, orOperator, andNested, comparisons, containsAndNeq, orderByDesc, orderNeedsOrderBy];
