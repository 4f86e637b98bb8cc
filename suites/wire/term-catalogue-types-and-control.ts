// Term catalogue of wire-protocol.md, group "Types and control" (line 146).
import { term as t } from '../../src/clients/wire/terms.ts';
import { check } from '../../src/core/check.ts';
import { deepEqual, expectArityRefused, expectError, expectValue, fn1, perTerm, ResponseType, setupValue, show, summary, tableWith, valueOf, values, withDatabase } from './support.ts';

const section = 'Term catalogue (TermType name = number: signature)';
const file = 'wire-protocol.md';
const line = 146;

export const arity = check(
  {
    id: 'wire.term-catalogue.types-and-control.arity',
    title: 'Type and control terms refuse argument counts their signatures exclude with COMPILE_ERROR',
    protocol: 'wire',
    section,
    level: 'MUST',
    spec: { file, line, quote: 'COERCE_TO=51: Top, STRING -> Top; TYPE_OF=52: Top -> STRING' },
    touches: ['term:BRANCH', 'term:COERCE_TO', 'term:DATUM', 'term:DEFAULT', 'term:FOR_EACH', 'term:FUNC', 'term:FUNCALL', 'term:INFO', 'term:JSON', 'term:MAKE_ARRAY', 'term:TO_JSON_STRING', 'term:TYPE_OF', 'term:VAR'],
    faults: ['arity-unchecked-types-and-control'],
    terms: ['COERCE_TO', 'TYPE_OF', 'FUNCALL', 'BRANCH', 'FOR_EACH', 'FUNC', 'DEFAULT', 'INFO', 'JSON', 'TO_JSON_STRING'],
  },
  async (ctx) => {
    const conn = await ctx.wire.connect();
    await expectArityRefused(ctx, conn, {
      COERCE_TO: { valid: t('COERCE_TO', ['1', 'NUMBER']), wrong: [1, 3] },
      TYPE_OF: { valid: t('TYPE_OF', [1]), wrong: [0, 2] },
      FUNCALL: { valid: t('FUNCALL', [fn1((x) => x), 1]), wrong: [0] },
      BRANCH: { valid: t('BRANCH', [true, 1, 2]), wrong: [2, 4] },
      FOR_EACH: { valid: t('FOR_EACH', [[], fn1((x) => x)]), wrong: [1, 3] },
      FUNC: { valid: t('FUNCALL', [fn1((x) => x), 1]), wrong: [1, 3] },
      DEFAULT: { valid: t('DEFAULT', [null, 1]), wrong: [1, 3] },
      INFO: { valid: t('INFO', [1]), wrong: [0, 2] },
      JSON: { valid: t('JSON', ['[1]']), wrong: [0, 2] },
      TO_JSON_STRING: { valid: t('TO_JSON_STRING', [[1]]), wrong: [0, 2] },
    });
  },
);

export const resultTypes = check(
  {
    id: 'wire.term-catalogue.types-and-control.result-types',
    title: 'TYPE_OF answers a STRING and INFO an OBJECT, as their signatures state',
    protocol: 'wire',
    section,
    level: 'MUST',
    spec: { file, line, quote: 'TYPE_OF=52: Top -> STRING' },
    touches: ['term:DATUM', 'term:INFO', 'term:TYPE_OF'],
    faults: ['info-as-string'],
    terms: ['TYPE_OF', 'INFO'],
  },
  async (ctx) => {
    const conn = await ctx.wire.connect();
    const type = await valueOf(conn, t('TYPE_OF', [1]), 'TYPE_OF(1)');
    ctx.expect(typeof type === 'string', `TYPE_OF(1) should be a STRING, got ${show(type)}`);
    const info = await valueOf(conn, t('INFO', [[1, 2]]), 'INFO([1, 2])');
    ctx.expect(typeof info === 'object' && info !== null && !Array.isArray(info), `INFO([1, 2]) should be an OBJECT, got ${show(info)}`);
  },
);

export const coerceBranchFuncall = check(
  {
    id: 'wire.term-catalogue.types-and-control.coerce-branch-funcall',
    title: 'COERCE_TO converts to the type it names, BRANCH picks a branch by its condition, FUNCALL applies its function',
    protocol: 'wire',
    section,
    // Line 146 gives only signatures (Top, STRING -> Top; BOOL, Top, Top -> Top): what each does is read from its name.
    level: 'SHOULD',
    spec: { file, line, quote: 'COERCE_TO=51: Top, STRING -> Top' },
    touches: ['term:ADD', 'term:BRANCH', 'term:COERCE_TO', 'term:DATUM', 'term:FUNC', 'term:FUNCALL', 'term:MAKE_ARRAY', 'term:VAR'],
    faults: ['coerce-to-ignored'],
    terms: ['COERCE_TO', 'BRANCH', 'FUNCALL', 'FUNC'],
  },
  async (ctx) => {
    const conn = await ctx.wire.connect();
    await expectValue(conn, t('COERCE_TO', ['12', 'NUMBER']), 12, 'COERCE_TO("12", "NUMBER")');
    await expectValue(conn, t('COERCE_TO', [12, 'STRING']), '12', 'COERCE_TO(12, "STRING")');
    await expectValue(conn, t('BRANCH', [true, 'then', 'else']), 'then', 'BRANCH(true, "then", "else")');
    await expectValue(conn, t('BRANCH', [false, 'then', 'else']), 'else', 'BRANCH(false, "then", "else")');
    await expectValue(conn, t('FUNCALL', [fn1((x) => t('ADD', [x, 1])), 41]), 42, 'FUNCALL(FUNC([1], ADD(VAR(1), 1)), 41)');
  },
);

export const defaultSemantics = check(
  {
    id: 'wire.term-catalogue.types-and-control.default-null-or-absent',
    title: 'DEFAULT gives its second argument when the first is NULL or raises an absent-value error, and only then',
    protocol: 'wire',
    section,
    level: 'MUST',
    spec: { file, line, quote: 'second argument returned or executed if the first is NULL or raises an absent-value error' },
    touches: ['term:DATUM', 'term:DEFAULT', 'term:ERROR', 'term:GET_FIELD'],
    faults: ['default-ignores-null', 'default-catches-any-error'],
    terms: ['DEFAULT', 'GET_FIELD', 'ERROR'],
  },
  async (ctx) => {
    const conn = await ctx.wire.connect();
    await expectValue(conn, t('DEFAULT', [null, 5]), 5, 'DEFAULT(null, 5)');
    await expectValue(conn, t('DEFAULT', [t('GET_FIELD', [{ a: 1 }, 'b']), 5]), 5, 'DEFAULT(GET_FIELD({a: 1}, "b"), 5)');
    await expectValue(conn, t('DEFAULT', [3, 5]), 3, 'DEFAULT(3, 5)');
    await expectError(conn, t('DEFAULT', [t('ERROR', ['not absent']), 5]), 'DEFAULT(ERROR("not absent"), 5), whose error is not an absent value', 'RUNTIME_ERROR');
  },
);

export const defaultHandler = check(
  {
    id: 'wire.term-catalogue.types-and-control.default-function-gets-error-text',
    title: 'A DEFAULT function receives the error text (or NULL when the first argument was NULL)',
    protocol: 'wire',
    section,
    level: 'MUST',
    spec: { file, line, quote: 'a function receives the error text or NULL' },
    touches: ['term:DATUM', 'term:DEFAULT', 'term:FUNC', 'term:GET_FIELD', 'term:MAKE_ARRAY', 'term:VAR'],
    faults: ['default-ignores-null'],
    terms: ['DEFAULT', 'FUNC', 'TYPE_OF'],
  },
  async (ctx) => {
    const conn = await ctx.wire.connect();
    const text = await valueOf(conn, t('DEFAULT', [t('GET_FIELD', [{ a: 1 }, 'b']), fn1((e) => e)]), 'DEFAULT(GET_FIELD({a: 1}, "b"), FUNC([1], VAR(1)))');
    ctx.expect(typeof text === 'string' && text.length > 0, `the DEFAULT function should receive the error text, got ${show(text)}`);
    await expectValue(conn, t('DEFAULT', [null, fn1((e) => t('MAKE_ARRAY', [e]))]), [null], 'DEFAULT(null, FUNC([1], MAKE_ARRAY(VAR(1))))');
  },
);

export const jsonRoundTrip = check(
  {
    id: 'wire.term-catalogue.types-and-control.json-and-to-json-string',
    title: 'JSON parses a STRING into a datum; TO_JSON_STRING writes a datum as a JSON STRING',
    protocol: 'wire',
    section,
    // Line 146 gives only STRING -> DATUM and DATUM -> STRING: parsing and writing JSON text are
    // read from the names (as COERCE_TO's and BRANCH's behaviour on the same line): SHOULD.
    level: 'SHOULD',
    spec: { file, line, quote: 'JSON=98: STRING -> DATUM; TO_JSON_STRING=172: DATUM -> STRING' },
    touches: ['term:DATUM', 'term:JSON', 'term:TO_JSON_STRING'],
    faults: ['json-returns-string'],
    terms: ['JSON', 'TO_JSON_STRING'],
  },
  async (ctx) => {
    const conn = await ctx.wire.connect();
    await expectValue(conn, t('JSON', ['{"a":[1,2,null],"b":"x"}']), { a: [1, 2, null], b: 'x' }, 'JSON(\'{"a":[1,2,null],"b":"x"}\')');
    const text = await valueOf(conn, t('TO_JSON_STRING', [{ a: [1, 2, null], b: 'x' }]), 'TO_JSON_STRING({a: [1, 2, null], b: "x"})');
    let parsed: unknown;
    try {
      parsed = JSON.parse(String(text));
    } catch {
      ctx.fail(`TO_JSON_STRING({a: [1, 2, null], b: "x"}) should be JSON text, got ${show(text)}`);
    }
    ctx.expect(deepEqual(parsed, { a: [1, 2, null], b: 'x' }), `TO_JSON_STRING should encode the datum {a: [1, 2, null], b: "x"}, got ${show(text)}`);
  },
);

export const binaryRefused = check(
  {
    id: 'wire.term-catalogue.types-and-control.binary-client-only',
    title: 'BINARY is client-only: the server does not evaluate it',
    protocol: 'wire',
    section,
    level: 'MUST',
    spec: { file, line, quote: 'BINARY=155: STRING -> PSEUDOTYPE(BINARY) (client-only, not supported on the server)' },
    touches: ['term:BINARY', 'term:DATUM'],
    faults: ['binary-accepted'],
    terms: ['BINARY'],
  },
  async (ctx) => {
    const conn = await ctx.wire.connect();
    // The real service differs: RethinkDB's binary_term_t evaluates BINARY("abc") to a binary
    // value. Line 146 states "not supported on the server", and the text wins (rubric 11).
    // Positive control: the server evaluates queries (the same string as a plain datum); BINARY
    // has no valid call on a server, so its refusal is the rule itself, whatever the wording.
    await ctx.setup('the datum "abc" evaluates to "abc"', () => expectValue(conn, 'abc', 'abc', 'the datum "abc"'));
    const res = await conn.start(t('BINARY', ['abc']));
    ctx.expect(
      [ResponseType.CLIENT_ERROR, ResponseType.COMPILE_ERROR, ResponseType.RUNTIME_ERROR].includes(res.type!),
      `BINARY("abc"), a client-only term, should be refused with an error, got ${summary(res)} ${show(values(res))}`,
    );
  },
);

export const forEachObject = check(
  {
    id: 'wire.term-catalogue.types-and-control.for-each-object',
    title: 'FOR_EACH runs a write per item and answers one OBJECT',
    protocol: 'wire',
    section,
    level: 'MUST',
    spec: { file, line, quote: 'FOR_EACH=68: Sequence, Function(1) -> OBJECT' },
    touches: ['term:COUNT', 'term:DATUM', 'term:DB', 'term:DB_CREATE', 'term:DB_DROP', 'term:FOR_EACH', 'term:FUNC', 'term:INSERT', 'term:MAKE_ARRAY', 'term:MAKE_OBJ', 'term:TABLE', 'term:TABLE_CREATE', 'term:VAR'],
    faults: ['for-each-returns-array'],
    terms: ['FOR_EACH', 'INSERT'],
  },
  async (ctx) => {
    await withDatabase(ctx, 'for-each-object', async (conn, db) => {
      const table = await tableWith(ctx, conn, db, 'rows', []);
      const res = await valueOf(conn, t('FOR_EACH', [[1, 2, 3], fn1((x) => t('INSERT', [table, t('MAKE_OBJ', [], { id: x })]))]), 'FOR_EACH([1, 2, 3], x => INSERT(table, {id: x}))');
      ctx.expect(typeof res === 'object' && res !== null && !Array.isArray(res), `FOR_EACH should answer an OBJECT, got ${show(res)}`);
      await expectValue(conn, t('COUNT', [table]), 3, 'COUNT(table) after FOR_EACH');
    });
  },
);

export const typeErrorsLocated = check(
  {
    id: 'wire.term-catalogue.types-and-control.type-mismatch-located',
    title: 'An argument of the wrong type is a COMPILE_ERROR or RUNTIME_ERROR whose backtrace locates it: at that argument or at the term',
    protocol: 'wire',
    section: 'Response (message)',
    level: 'MUST',
    spec: { file, line: 35, quote: 'provided for error responses (CLIENT_ERROR, COMPILE_ERROR, RUNTIME_ERROR); locates the error in the query' },
    touches: ['term:APPEND', 'term:COUNT', 'term:DATUM', 'term:EPOCH_TIME', 'term:KEYS', 'term:SUB', 'term:UPCASE'],
    faults: ['type-error-wrong-frame'],
    terms: ['APPEND', 'UPCASE', 'KEYS', 'EPOCH_TIME', 'COUNT', 'SUB'],
  },
  async (ctx) => {
    const conn = await ctx.wire.connect();
    const cases: [string, ReturnType<typeof t>, number][] = [
      ['APPEND("not an array", 1)', t('APPEND', ['not an array', 1]), 0],
      ['UPCASE(5)', t('UPCASE', [5]), 0],
      ['KEYS([1])', t('KEYS', [[1]]), 0],
      ['EPOCH_TIME("soon")', t('EPOCH_TIME', ['soon']), 0],
      ['COUNT(5)', t('COUNT', [5]), 0],
      ['SUB(10, 1, "two")', t('SUB', [10, 1, 'two']), 2],
    ];
    // Lines 35, 58 and 177 say frames locate the error and run to the faulty term; they do not
    // say whether a mismatch belongs to the argument or to the term applying the signature, and
    // line 49 files type checking under COMPILE_ERROR while line 50 has run-time type failures.
    // Each term is first seen to evaluate a valid call (its positive control), term by term.
    const valid: Record<string, ReturnType<typeof t>> = {
      APPEND: t('APPEND', [[1], 2]), UPCASE: t('UPCASE', ['a']), KEYS: t('KEYS', [{ a: 1 }]), EPOCH_TIME: t('EPOCH_TIME', [0]), COUNT: t('COUNT', [[1]]), SUB: t('SUB', [10, 1, 2]),
    };
    await perTerm(ctx, Object.fromEntries(cases.map(([what, query, pos]) => {
      const name = what.slice(0, what.indexOf('('));
      return [name, async () => {
        await setupValue(ctx, conn, valid[name], `${name} evaluates a valid call`);
        const res = await expectError(conn, query, `${what}, an argument of the wrong type`);
        ctx.expect(res.type !== ResponseType.CLIENT_ERROR, `${what} is no client bug: expected COMPILE_ERROR or RUNTIME_ERROR, got ${summary(res)}`);
        const frames = (res.backtrace?.frames ?? []).map((f) => (f.type === 2 ? `OPT ${f.opt}` : `POS ${f.pos}`));
        ctx.expect(
          frames.length === 0 || frames.join(', ') === `POS ${pos}`,
          `${what}: the backtrace should locate the term ([]) or its argument ${pos} ([POS ${pos}]), got [${frames.join(', ')}]`,
        );
      }];
    })));
  },
);

export const checks = [arity, resultTypes, coerceBranchFuncall, defaultSemantics, defaultHandler, jsonRoundTrip, binaryRefused, forEachObject, typeErrorsLocated];
