// Term catalogue of wire-protocol.md, group "Objects" (line 144).
import type { JsValue } from '../../src/clients/wire/codec.ts';
import { term as t } from '../../src/clients/wire/terms.ts';
import { check } from '../../src/core/check.ts';
import { deepEqual, expectArityRefusedTyped, expectValue, show, valueOf } from './support.ts';

const section = 'Term catalogue (TermType name = number: signature)';
const file = 'wire-protocol.md';
const line = 144;

export const arity = check(
  {
    id: 'wire.term-catalogue.objects.arity',
    title: 'Object terms refuse argument counts their signatures exclude with COMPILE_ERROR',
    protocol: 'wire',
    section,
    level: 'MUST',
    spec: { file, line, quote: 'KEYS=94 and VALUES=186: OBJECT -> ARRAY' },
    touches: ['term:DATUM', 'term:GET_FIELD', 'term:HAS_FIELDS', 'term:KEYS', 'term:PLUCK', 'term:VALUES', 'term:WITHOUT', 'term:WITH_FIELDS'],
    faults: ['arity-unchecked-objects', 'extra-args-ignored'],
    terms: ['GET_FIELD', 'KEYS', 'VALUES', 'HAS_FIELDS', 'WITH_FIELDS', 'PLUCK', 'WITHOUT', 'MERGE'],
  },
  async (ctx) => {
    const conn = await ctx.wire.connect();
    // MERGE=35: OBJECT... may take zero objects (line 11 does not say a rest argument is given at least once).
    const obj = { a: 1, b: 2 };
    // Extra arguments are of the type the signature wants (an OBJECT first): a literal of the
    // wrong type may be refused for its type alone (the variant's COMPILE_ERROR).
    await expectArityRefusedTyped(ctx, conn, {
      GET_FIELD: { valid: t('GET_FIELD', [obj, 'a']), wrong: [[obj], [obj, 'a', 'b']] },
      KEYS: { valid: t('KEYS', [obj]), wrong: [[], [obj, obj]] },
      VALUES: { valid: t('VALUES', [obj]), wrong: [[], [obj, obj]] },
      HAS_FIELDS: { valid: t('HAS_FIELDS', [obj, 'a']), wrong: [[]] },
      WITH_FIELDS: { valid: t('WITH_FIELDS', [[obj], 'a']), wrong: [[]] },
      PLUCK: { valid: t('PLUCK', [obj, 'a']), wrong: [[]] },
      WITHOUT: { valid: t('WITHOUT', [obj, 'a']), wrong: [[]] },
    });
  },
);

export const getFieldOnSequence = check(
  {
    id: 'wire.term-catalogue.objects.get-field-object-and-sequence',
    title: 'GET_FIELD reads a field of an OBJECT, and of each item of a sequence',
    protocol: 'wire',
    section,
    // The signatures state the kinds (a Sequence for a Sequence); which field, keys, values and BOOL
    // are answered is read from the names of GET_FIELD, KEYS, VALUES, OBJECT and HAS_FIELDS.
    level: 'SHOULD',
    spec: { file, line, quote: 'GET_FIELD=31: OBJECT, STRING -> DATUM | Sequence, STRING -> Sequence' },
    touches: ['term:DATUM', 'term:GET_FIELD', 'term:HAS_FIELDS', 'term:KEYS', 'term:OBJECT', 'term:VALUES'],
    faults: ['get-field-sequence-refused'],
    terms: ['GET_FIELD', 'KEYS', 'VALUES', 'OBJECT', 'HAS_FIELDS'],
  },
  async (ctx) => {
    const conn = await ctx.wire.connect();
    await expectValue(conn, t('GET_FIELD', [{ a: 1, b: 2 }, 'b']), 2, 'GET_FIELD({a: 1, b: 2}, "b")');
    await expectValue(conn, t('GET_FIELD', [[{ a: 1 }, { a: 2 }], 'a']), [1, 2], 'GET_FIELD([{a: 1}, {a: 2}], "a")');
    // KEYS and VALUES state no order (and an R_OBJECT has none, line 68): compared as sorted lists.
    const keys = await valueOf(conn, t('KEYS', [{ a: 1, b: 2 }]), 'KEYS({a: 1, b: 2})');
    ctx.expect(Array.isArray(keys) && deepEqual([...keys].sort(), ['a', 'b']), `KEYS({a: 1, b: 2}) should be an ARRAY of "a" and "b" in some order, got ${show(keys)}`);
    const vals = await valueOf(conn, t('VALUES', [{ a: 1, b: 2 }]), 'VALUES({a: 1, b: 2})');
    ctx.expect(Array.isArray(vals) && deepEqual([...vals].sort(), [1, 2]), `VALUES({a: 1, b: 2}) should be an ARRAY of 1 and 2 in some order, got ${show(vals)}`);
    await expectValue(conn, t('OBJECT', ['a', 1, 'b', [2]]), { a: 1, b: [2] }, 'OBJECT("a", 1, "b", [2])');
    await expectValue(conn, t('HAS_FIELDS', [{ a: 1, b: 2 }, 'a', 'b']), true, 'HAS_FIELDS({a: 1, b: 2}, "a", "b")');
    await expectValue(conn, t('HAS_FIELDS', [{ a: 1 }, 'a', 'b']), false, 'HAS_FIELDS({a: 1}, "a", "b")');
  },
);

export const pluckSameKind = check(
  {
    id: 'wire.term-catalogue.objects.pluck-without-same-kind',
    title: 'PLUCK, WITHOUT and WITH_FIELDS answer an OBJECT for an OBJECT and a sequence for a sequence',
    protocol: 'wire',
    section,
    level: 'MUST',
    spec: { file, line, quote: 'PLUCK=33 and WITHOUT=34: Sequence|OBJECT, Pathspec... -> same kind' },
    touches: ['term:DATUM', 'term:PLUCK', 'term:WITHOUT', 'term:WITH_FIELDS'],
    faults: ['pluck-sequence-first-only'],
    terms: ['PLUCK', 'WITHOUT', 'WITH_FIELDS'],
  },
  async (ctx) => {
    const conn = await ctx.wire.connect();
    const rows: JsValue[] = [{ a: 1, b: 2 }, { a: 3, c: 4 }];
    await expectValue(conn, t('PLUCK', [{ a: 1, b: 2 }, 'a']), { a: 1 }, 'PLUCK({a: 1, b: 2}, "a")');
    await expectValue(conn, t('PLUCK', [rows, 'a']), [{ a: 1 }, { a: 3 }], 'PLUCK([{a: 1, b: 2}, {a: 3, c: 4}], "a")');
    await expectValue(conn, t('WITHOUT', [{ a: 1, b: 2 }, 'a']), { b: 2 }, 'WITHOUT({a: 1, b: 2}, "a")');
    await expectValue(conn, t('WITHOUT', [rows, 'a']), [{ b: 2 }, { c: 4 }], 'WITHOUT([{a: 1, b: 2}, {a: 3, c: 4}], "a")');
    await expectValue(conn, t('WITH_FIELDS', [rows, 'b']), [{ b: 2 }], 'WITH_FIELDS([{a: 1, b: 2}, {a: 3, c: 4}], "b")');
  },
);

export const mergeRightPreferential = check(
  {
    id: 'wire.term-catalogue.objects.merge-right-preferential',
    title: 'MERGE takes the right-hand value of a field both objects have, also for each item of a sequence',
    protocol: 'wire',
    section,
    level: 'MUST',
    spec: { file, line, quote: 'MERGE=35: OBJECT... -> OBJECT | Sequence -> Sequence (right-preferential)' },
    touches: ['term:DATUM', 'term:MERGE'],
    faults: ['merge-left-preferential'],
    terms: ['MERGE'],
  },
  async (ctx) => {
    const conn = await ctx.wire.connect();
    await expectValue(conn, t('MERGE', [{ a: 1, b: 1 }, { b: 2, c: 2 }, { c: 3 }]), { a: 1, b: 2, c: 3 }, 'MERGE({a: 1, b: 1}, {b: 2, c: 2}, {c: 3})');
    await expectValue(conn, t('MERGE', [[{ a: 1 }, { a: 2, b: 0 }], { b: 9 }]), [{ a: 1, b: 9 }, { a: 2, b: 9 }], 'MERGE([{a: 1}, {a: 2, b: 0}], {b: 9})');
  },
);

export const literalReplaces = check(
  {
    id: 'wire.term-catalogue.objects.literal-replaces-or-removes',
    title: 'In MERGE, LITERAL(value) replaces a nested object instead of merging it, and an empty LITERAL removes the field',
    protocol: 'wire',
    section,
    level: 'MUST',
    spec: { file, line, quote: 'LITERAL=137: makes MERGE replace, or remove for an empty literal, instead of merging' },
    touches: ['term:DATUM', 'term:LITERAL', 'term:MAKE_OBJ', 'term:MERGE'],
    faults: ['literal-ignored'],
    terms: ['LITERAL', 'MERGE'],
  },
  async (ctx) => {
    const conn = await ctx.wire.connect();
    const left = { a: { x: 1, y: 1 }, b: 1 };
    await expectValue(conn, t('MERGE', [left, { a: { x: 2 } }]), { a: { x: 2, y: 1 }, b: 1 }, 'MERGE({a: {x: 1, y: 1}, b: 1}, {a: {x: 2}}) (nested merge)');
    await expectValue(conn, t('MERGE', [left, t('MAKE_OBJ', [], { a: t('LITERAL', [{ x: 2 }]) })]), { a: { x: 2 }, b: 1 }, 'MERGE({a: {x: 1, y: 1}, b: 1}, {a: LITERAL({x: 2})})');
    await expectValue(conn, t('MERGE', [left, t('MAKE_OBJ', [], { b: t('LITERAL', []) })]), { a: { x: 1, y: 1 } }, 'MERGE({a: {x: 1, y: 1}, b: 1}, {b: LITERAL()})');
  },
);

export const checks = [arity, getFieldOnSequence, pluckSameKind, mergeRightPreferential, literalReplaces];
