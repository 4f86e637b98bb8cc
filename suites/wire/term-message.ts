// Section "Term (message)" of wire-protocol.md: optional arguments and the type hierarchy of
// operation arguments.
import type { JsValue } from '../../src/clients/wire/codec.ts';
import { term as t } from '../../src/clients/wire/terms.ts';
import { check } from '../../src/core/check.ts';
import { control, OWNER } from './controls.ts';
import { deepEqual, expectError, ResponseType, show, summary, tableWith, valueOf, withDatabase } from './support.ts';

const section = 'Term (message)';
const file = 'wire-protocol.md';

export const optargsOrder = check(
  {
    id: 'wire.term-message.optargs-order-does-not-matter',
    title: 'The same optional arguments sent in another order give the same answer',
    protocol: 'wire',
    section,
    level: 'MUST',
    spec: { file, line: 78, quote: 'optional arguments; order does not matter' },
    touches: ['term:BETWEEN', 'term:DATUM', 'term:DB', 'term:DB_CREATE', 'term:DB_DROP', 'term:INSERT', 'term:MAKE_OBJ', 'term:TABLE', 'term:TABLE_CREATE'],
    faults: ['optargs-by-position'],
    terms: ['MAKE_OBJ', 'BETWEEN'],
  },
  async (ctx) => {
    const conn = await ctx.wire.connect();
    // MAKE_OBJ is served here, and builds its object from one optional argument: only the order of several is left to judge.
    await control(ctx, conn, t('MAKE_OBJ', [], { a: 1 }), { a: 1 }, 'MAKE_OBJ{a: 1}', 'wire.term-catalogue.core-and-data.make-array-and-object');
    // MAKE_OBJ's fields are its optional arguments (MAKE_OBJ=3: {...} -> OBJECT): three orders of the same three.
    const orders = [['a', 'b', 'c'], ['c', 'a', 'b'], ['b', 'c', 'a']];
    const fields: Record<string, number> = { a: 1, b: 2, c: 3 };
    const answers = [];
    for (const keys of orders) {
      const what = `MAKE_OBJ with optional arguments in the order ${keys.join(', ')}`;
      answers.push([what, await valueOf(conn, t('MAKE_OBJ', [], Object.fromEntries(keys.map((k) => [k, fields[k]]))), what)] as const);
    }
    for (const [what, got] of answers) ctx.expect(deepEqual(got, fields), `${what} should answer ${show(fields)} whatever the order, got ${show(got)}`);
    // A term whose options act on each other's meaning: BETWEEN's two bounds, named in both orders.
    await withDatabase(ctx, 'optargs-order-does-not-matter', async (c, db) => {
      const table = await tableWith(ctx, c, db, 'rows', [1, 2, 3, 4, 5].map((id) => ({ id })));
      const ids = (v: JsValue) => (Array.isArray(v) ? v.map((row) => (row as Record<string, JsValue>)?.id).sort() : v);
      // BETWEEN is served here, and selects by its bounds: without options, the half-open default [2, 4).
      await ctx.setup('positive control: BETWEEN(table of ids 1..5, 2, 4) selects ids 2 and 3', async () => {
        const got = ids(await valueOf(c, t('BETWEEN', [table, 2, 4]), 'BETWEEN(table, 2, 4)'));
        ctx.expect(deepEqual(got, [2, 3]), `BETWEEN(table of ids 1..5, 2, 4) should select ids [2,3], got ${show(got)}`);
      }, { seeAlso: OWNER.BETWEEN });
      const leftFirst = await valueOf(c, t('BETWEEN', [table, 2, 4], { left_bound: 'open', right_bound: 'closed' }), 'BETWEEN(table, 2, 4, {left_bound: "open", right_bound: "closed"})');
      const rightFirst = await valueOf(c, t('BETWEEN', [table, 2, 4], { right_bound: 'closed', left_bound: 'open' }), 'BETWEEN(table, 2, 4, {right_bound: "closed", left_bound: "open"})');
      ctx.expect(
        deepEqual(ids(leftFirst), ids(rightFirst)),
        `BETWEEN(table of ids 1..5, 2, 4) with left_bound "open" and right_bound "closed" selected ids ${show(ids(leftFirst))} with the options in that order and ${show(ids(rightFirst))} in the other`,
      );
    });
  },
);

export const orderingOnlyInOrderBy = check(
  {
    id: 'wire.term-message.ordering-only-in-order-by',
    title: 'ASC and DESC (an Ordering) outside ORDER_BY are refused with an error',
    protocol: 'wire',
    section,
    // The refusal is implied by where the type hierarchy says an Ordering is used, not stated: SHOULD.
    level: 'SHOULD',
    spec: { file, line: 82, quote: 'Ordering (used only by ORDER_BY)' },
    touches: ['term:ASC', 'term:DATUM', 'term:DESC', 'term:MAKE_ARRAY', 'term:ORDER_BY'],
    faults: ['ordering-as-datum'],
    terms: ['ASC', 'DESC', 'ORDER_BY'],
  },
  async (ctx) => {
    const conn = await ctx.wire.connect();
    // Inside ORDER_BY both orderings are served: the refusals below are for where they stand, not for the terms.
    const rows = [{ a: 2 }, { a: 1 }, { a: 3 }];
    await control(ctx, conn, t('ORDER_BY', [rows, t('ASC', ['a'])]), [{ a: 1 }, { a: 2 }, { a: 3 }], 'ORDER_BY([{a: 2}, {a: 1}, {a: 3}], ASC("a"))', OWNER.ORDER_BY);
    await control(ctx, conn, t('ORDER_BY', [rows, t('DESC', ['a'])]), [{ a: 3 }, { a: 2 }, { a: 1 }], 'ORDER_BY([{a: 2}, {a: 1}, {a: 3}], DESC("a"))', OWNER.ORDER_BY);
    for (const [what, query] of [
      ['ASC("a") as the whole query', t('ASC', ['a'])],
      ['DESC("a") as an item of MAKE_ARRAY', t('MAKE_ARRAY', [t('DESC', ['a'])])],
    ] as const) {
      const res = await expectError(conn, query, `${what}, an Ordering outside ORDER_BY,`);
      ctx.expect(res.type !== ResponseType.CLIENT_ERROR, `${what} is no client bug: expected COMPILE_ERROR or RUNTIME_ERROR, got ${summary(res)}`);
    }
  },
);

export const checks = [optargsOrder, orderingOnlyInOrderBy];
