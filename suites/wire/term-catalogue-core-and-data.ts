// Term catalogue of wire-protocol.md, group "Core and data" (line 132).
import { term as t } from '../../src/clients/wire/terms.ts';
import { check } from '../../src/core/check.ts';
import { expectArityRefusedTyped, expectError, expectValue, fn1, perTerm, ResponseType, show, summary, unavailableEnds } from './support.ts';

const section = 'Term catalogue (TermType name = number: signature)';
const file = 'wire-protocol.md';
const line = 132;

export const arity = check(
  {
    id: 'wire.term-catalogue.core-and-data.arity',
    title: 'Core and data terms refuse argument counts their signatures exclude with COMPILE_ERROR',
    protocol: 'wire',
    section,
    level: 'MUST',
    spec: { file, line, quote: 'VAR=10: !NUMBER -> DATUM; JAVASCRIPT=11: STRING {timeout:!NUMBER}' },
    touches: ['term:DATUM', 'term:ERROR', 'term:FILTER', 'term:FUNC', 'term:FUNCALL', 'term:GT', 'term:HTTP', 'term:IMPLICIT_VAR', 'term:JAVASCRIPT', 'term:MAKE_ARRAY', 'term:MAKE_OBJ', 'term:UUID', 'term:VAR'],
    faults: ['arity-unchecked-core-and-data', 'extra-args-ignored', 'implicit-var-takes-args'],
    terms: ['VAR', 'JAVASCRIPT', 'UUID', 'HTTP', 'ERROR', 'IMPLICIT_VAR', 'MAKE_OBJ'],
  },
  async (ctx) => {
    const conn = await ctx.wire.connect();
    // UUID takes (); IMPLICIT_VAR takes nothing; MAKE_OBJ only optional arguments; ERROR at most one STRING.
    // Extra arguments are of the type the signature wants: a literal of the wrong type may be
    // refused for its type alone (the variant's COMPILE_ERROR), which is not the count refused.
    await expectArityRefusedTyped(ctx, conn, {
      // VAR and IMPLICIT_VAR are called where their variable is bound: outside it a server may refuse
      // them for the missing binding (the reference does, for IMPLICIT_VAR), not for the count.
      VAR: { valid: t('FUNCALL', [fn1((x) => x), 5]), wrong: [[], [1, 1]], wrap: (call) => t('FUNCALL', [t('FUNC', [t('MAKE_ARRAY', [1]), call]), 5]) },
      JAVASCRIPT: { valid: t('JAVASCRIPT', ['1 + 1']), wrong: [[], ['1 + 1', '2 + 2']] },
      UUID: { valid: t('UUID'), wrong: [[1]] },
      HTTP: { valid: t('HTTP', ['http://127.0.0.1:9/']), wrong: [[], ['http://127.0.0.1:9/', 'http://127.0.0.1:9/']] },
      ERROR: { valid: t('ERROR', ['conformance: raised']), raises: 'conformance: raised', wrong: [['conformance: one', 'conformance: two']] },
      IMPLICIT_VAR: { valid: t('FILTER', [[1, 2], fn1(() => t('GT', [t('IMPLICIT_VAR'), 1]))]), wrong: [[1]], wrap: (call) => t('FILTER', [[1, 2], fn1(() => t('GT', [call, 1]))]) },
      MAKE_OBJ: { valid: t('MAKE_OBJ', [], { a: 1 }), wrong: [[1]] },
    });
  },
);

export const makeArrayAndObject = check(
  {
    id: 'wire.term-catalogue.core-and-data.make-array-and-object',
    title: 'MAKE_ARRAY builds an ARRAY of its arguments, MAKE_OBJ an OBJECT of its optional arguments',
    protocol: 'wire',
    section,
    // The signatures give the kinds answered; that the ARRAY and OBJECT hold the arguments is read from the names.
    level: 'SHOULD',
    spec: { file, line, quote: 'MAKE_ARRAY=2: DATUM... -> ARRAY; MAKE_OBJ=3: {...} -> OBJECT' },
    touches: ['term:DATUM', 'term:MAKE_ARRAY', 'term:MAKE_OBJ'],
    faults: ['make-array-drops-nulls'],
    terms: ['DATUM', 'MAKE_ARRAY', 'MAKE_OBJ'],
  },
  async (ctx) => {
    const conn = await ctx.wire.connect();
    await expectValue(conn, t('MAKE_ARRAY', [1, null, 'a', t('MAKE_ARRAY', [])]), [1, null, 'a', []], 'MAKE_ARRAY(1, null, "a", MAKE_ARRAY())');
    await expectValue(conn, t('MAKE_OBJ', [], { a: 1, b: null, c: t('MAKE_ARRAY', [null]) }), { a: 1, b: null, c: [null] }, 'MAKE_OBJ{a: 1, b: null, c: MAKE_ARRAY(null)}');
  },
);

export const varLiteralOnly = check(
  {
    id: 'wire.term-catalogue.core-and-data.var-literal-number',
    title: 'VAR takes a literal variable number (!NUMBER), not a sub-term',
    protocol: 'wire',
    section,
    // Line 11's `!` tells the query writer to send a literal: the server's refusal of a sub-term is
    // implied, not stated (RethinkDB refuses it: "A variable term has a non-datum argument.").
    level: 'SHOULD',
    spec: { file, line, quote: 'VAR=10: !NUMBER -> DATUM' },
    touches: ['term:ADD', 'term:DATUM', 'term:FUNC', 'term:FUNCALL', 'term:MAKE_ARRAY', 'term:VAR'],
    faults: ['var-accepts-subterm'],
    terms: ['VAR', 'FUNC', 'FUNCALL'],
  },
  async (ctx) => {
    const conn = await ctx.wire.connect();
    await expectValue(conn, t('FUNCALL', [fn1((x) => x), 5]), 5, 'FUNCALL(FUNC([1], VAR(1)), 5)');
    const body = t('VAR', [t('ADD', [0, 1])]);
    await expectError(conn, t('FUNCALL', [t('FUNC', [t('MAKE_ARRAY', [1]), body]), 5]), 'FUNCALL(FUNC([1], VAR(ADD(0, 1))), 5), whose VAR argument is a sub-term');
  },
);

export const errorRethrow = check(
  {
    id: 'wire.term-catalogue.core-and-data.error-rethrow-in-default',
    title: 'ERROR with no argument inside a DEFAULT block rethrows the caught error',
    protocol: 'wire',
    section,
    level: 'MUST',
    spec: { file, line, quote: 'inside a default block the argument may be omitted to rethrow the caught error' },
    touches: ['term:DATUM', 'term:DEFAULT', 'term:ERROR', 'term:GET_FIELD'],
    faults: ['error-rethrow-unsupported'],
    terms: ['ERROR', 'DEFAULT', 'GET_FIELD'],
  },
  async (ctx) => {
    const conn = await ctx.wire.connect();
    const missing = t('GET_FIELD', [{ a: 1 }, 'missing']);
    // Positive controls: GET_FIELD reads a field that is there, and DEFAULT catches the missing one.
    await ctx.setup('GET_FIELD({a: 1}, "a") is 1', () => expectValue(conn, t('GET_FIELD', [{ a: 1 }, 'a']), 1, 'GET_FIELD({a: 1}, "a")'), { seeAlso: 'wire.term-catalogue.objects.get-field-object-and-sequence' });
    await ctx.setup('DEFAULT(GET_FIELD({a: 1}, "missing"), 5) is 5', () => expectValue(conn, t('DEFAULT', [missing, 5]), 5, 'DEFAULT(GET_FIELD({a: 1}, "missing"), 5)'), { seeAlso: 'wire.term-catalogue.types-and-control.default-null-or-absent' });
    const original = await ctx.setup('GET_FIELD({a: 1}, "missing") fails with an error to catch', () => expectError(conn, missing, 'GET_FIELD({a: 1}, "missing")', 'RUNTIME_ERROR'));
    const rethrown = await expectError(conn, t('DEFAULT', [missing, t('ERROR', [])]), 'DEFAULT(GET_FIELD({a: 1}, "missing"), ERROR())', 'RUNTIME_ERROR');
    const [a, b] = [original.response[0]?.r_str, rethrown.response[0]?.r_str];
    ctx.expect(a === b, `ERROR() in the DEFAULT block should rethrow the caught error ${show(a)}, got ${show(b)}`);
  },
);

export const errorMessage = check(
  {
    id: 'wire.term-catalogue.core-and-data.error-raises-its-message',
    title: 'ERROR(message) fails the query with a RUNTIME_ERROR carrying that message',
    protocol: 'wire',
    section,
    // Line 132 gives only the signature: that the error is a RUNTIME_ERROR carrying the STRING is read
    // from the term's name (as types-and-control reads DEFAULT's error text, line 146, at SHOULD).
    level: 'SHOULD',
    spec: { file, line, quote: 'ERROR=12: STRING -> Error' },
    touches: ['term:DATUM', 'term:ERROR'],
    faults: ['error-message-replaced'],
    terms: ['ERROR'],
  },
  async (ctx) => {
    const conn = await ctx.wire.connect();
    const res = await expectError(conn, t('ERROR', ['conformance: custom failure']), 'ERROR("conformance: custom failure")', 'RUNTIME_ERROR');
    // The wording around the message is not stated: the message must be in it.
    const message = res.response[0]?.r_str;
    ctx.expect(typeof message === 'string' && message.includes('conformance: custom failure'), `ERROR("conformance: custom failure") should fail with that message, got ${show(message)}`);
  },
);

export const implicitVar = check(
  {
    id: 'wire.term-catalogue.core-and-data.implicit-var',
    title: 'IMPLICIT_VAR stands for the argument of the one-argument function around it',
    protocol: 'wire',
    section,
    level: 'SHOULD',
    spec: { file, line, quote: 'IMPLICIT_VAR=13: -> DATUM' },
    touches: ['term:DATUM', 'term:FILTER', 'term:FUNC', 'term:GT', 'term:IMPLICIT_VAR', 'term:MAKE_ARRAY', 'term:UUID'],
    faults: ['implicit-var-unbound'],
    terms: ['IMPLICIT_VAR', 'UUID'],
  },
  async (ctx) => {
    const conn = await ctx.wire.connect();
    const isBig = t('FUNC', [t('MAKE_ARRAY', [1]), t('GT', [t('IMPLICIT_VAR', []), 1])]);
    // Two terms, each tested on its own: a server without one still has the other tested.
    await perTerm(ctx, {
      IMPLICIT_VAR: () => expectValue(conn, t('FILTER', [[1, 2, 3], isBig]), [2, 3], 'FILTER([1, 2, 3], FUNC([1], GT(IMPLICIT_VAR, 1)))'),
      UUID: async () => {
        const uuid = await conn.start(t('UUID', []));
        unavailableEnds(uuid, t('UUID', []), 'UUID()');
        ctx.expect(uuid.type === ResponseType.SUCCESS_ATOM, `UUID() should answer a datum, got ${summary(uuid)}`);
      },
    });
  },
);

export const checks = [arity, makeArrayAndObject, varLiteralOnly, errorRethrow, errorMessage, implicitVar];
