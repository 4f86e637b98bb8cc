// Section "Errors" of wire-protocol.md: the shape every failure response shares.
import type { ResponseMsg } from '../../src/clients/wire/codec.ts';
import type { WireConnection } from '../../src/clients/wire/connection.ts';
import { DatumType, ErrorType, names, nameOf } from '../../src/clients/wire/schema.ts';
import { r } from '../../src/clients/wire/terms.ts';
import { check, type WireCheckContext } from '../../src/core/check.ts';
import { errorControl, raisedByError } from './controls.ts';
import { expectType, summary } from './support.ts';

const section = 'Errors';
const file = 'wire-protocol.md';

/**
 * One response of each failure type, provoked the ways the document itself gives as examples.
 * Each is a set-up step: a server that answers one of them with another type deviates from the
 * rule another check tests, and leaves this check's rule untested (inconclusive).
 */
async function oneOfEachError(ctx: WireCheckContext, conn: WireConnection): Promise<[string, ResponseMsg][]> {
  const client = await ctx.setup('CONTINUE for unknown token 987654, answered CLIENT_ERROR', async () => {
    const res = await conn.continue(987_654n);
    expectType(res, 'CLIENT_ERROR', 'CONTINUE for unknown token 987654');
    return res;
  }, { seeAlso: 'wire.states.continue-unknown-token' });
  const compile = await ctx.setup('NOT with 2 arguments, answered COMPILE_ERROR', async () => {
    const res = await conn.start(r.not(true, false));
    expectType(res, 'COMPILE_ERROR', 'NOT with 2 arguments');
    return res;
  }, { seeAlso: 'wire.response-message.too-many-arguments-compile-error' });
  const runtime = await ctx.setup('ERROR("conformance-error"), answered RUNTIME_ERROR', async () => {
    const res = await conn.start(r.error('conformance-error'));
    expectType(res, 'RUNTIME_ERROR', 'ERROR("conformance-error")');
    return res;
  }, { seeAlso: 'wire.term-catalogue.core-and-data.error-raises-its-message' });
  return [
    ['CLIENT_ERROR', client],
    ['COMPILE_ERROR', compile],
    ['RUNTIME_ERROR', runtime],
  ];
}

export const oneStringDatum = check(
  {
    id: 'wire.errors.one-string-datum',
    title: 'CLIENT_ERROR, COMPILE_ERROR and RUNTIME_ERROR each carry one R_STR datum',
    protocol: 'wire',
    section,
    level: 'MUST',
    spec: { file, line: 176, quote: 'Each carries one R_STR datum with the message in `response`' },
    touches: ['term:DATUM', 'term:ERROR', 'term:NOT'],
    faults: ['error-message-as-object'],
    reliesOn: ['wire.states.continue-unknown-token', 'wire.response-message.too-many-arguments-compile-error'],
  },
  async (ctx) => {
    const conn = await ctx.wire.connect();
    for (const [kind, res] of await oneOfEachError(ctx, conn)) {
      const types = res.response.map((d) => nameOf(names.datumType, d.type));
      ctx.expect(
        res.response.length === 1 && res.response[0].type === DatumType.R_STR,
        `${kind} should carry exactly one R_STR datum, got ${summary(res)} of type ${types.join(', ') || 'none'}`,
      );
    }
  },
);

export const backtraceOnEveryError = check(
  {
    id: 'wire.errors.backtrace-on-every-error',
    title: 'CLIENT_ERROR, COMPILE_ERROR and RUNTIME_ERROR responses carry a backtrace',
    protocol: 'wire',
    section,
    level: 'MUST',
    spec: { file, line: 177, quote: 'A backtrace is provided for CLIENT_ERROR, COMPILE_ERROR and RUNTIME_ERROR responses' },
    touches: ['term:DATUM', 'term:ERROR', 'term:NOT'],
    faults: ['no-backtrace'],
    reliesOn: ['wire.states.continue-unknown-token', 'wire.response-message.too-many-arguments-compile-error'],
  },
  async (ctx) => {
    const conn = await ctx.wire.connect();
    for (const [kind, res] of await oneOfEachError(ctx, conn)) {
      ctx.expect(res.backtrace !== undefined, `${kind} response has no backtrace field`);
    }
  },
);

export const framesOutermostFirst = check(
  {
    id: 'wire.errors.frames-outermost-first',
    title: 'Backtrace frames run from the outermost term to the faulty one',
    protocol: 'wire',
    section,
    level: 'MUST',
    spec: { file, line: 177, quote: 'frames run from the outermost term to the faulty one' },
    touches: ['term:ADD', 'term:DATUM', 'term:ERROR', 'term:MAKE_ARRAY'],
    faults: ['backtrace-reversed'],
  },
  async (ctx) => {
    const conn = await ctx.wire.connect();
    await errorControl(ctx, conn, 'conformance-error');
    // The ERROR term is argument 0 of ADD, which is argument 2 of MAKE_ARRAY.
    const res = await conn.start(r.makeArray(10, 11, r.add(r.error('conformance-error'), 1)));
    expectType(res, 'RUNTIME_ERROR', 'MAKE_ARRAY(10, 11, ADD(ERROR(...), 1))');
    // The error in hand must be the one ERROR raised: another (ADD or ERROR not served) stands elsewhere.
    raisedByError(ctx, res, 'conformance-error', 'MAKE_ARRAY(10, 11, ADD(ERROR("conformance-error"), 1))');
    const frames = (res.backtrace?.frames ?? []).map((f) => (f.type === 2 ? `OPT ${f.opt}` : `POS ${f.pos}`));
    ctx.expect(frames.join(', ') === 'POS 2, POS 0', `expected frames [POS 2, POS 0] (outermost first), got [${frames.join(', ')}]`);
  },
);

export const errorTypeListed = check(
  {
    id: 'wire.errors.error-type-listed',
    title: 'A RUNTIME_ERROR error_type, when present, is one of the listed ErrorType values',
    protocol: 'wire',
    section,
    level: 'SHOULD',
    spec: { file, line: 178, quote: 'For RUNTIME_ERROR, error_type may carry one of the ErrorType values listed above' },
    touches: ['term:ADD', 'term:DATUM', 'term:EQ', 'term:ERROR'],
    faults: ['error-type-bogus'],
    reliesOn: ['wire.response-message.add-booleans-runtime-error'],
  },
  async (ctx) => {
    const conn = await ctx.wire.connect();
    const listed = new Set(Object.values(ErrorType));
    let seen = 0;
    for (const [what, term, owner] of [
      ['ERROR("conformance-error")', r.error('conformance-error')],
      ['ADD(EQ(1, 1), EQ(1, 2))', r.add(r.eq(1, 1), r.eq(1, 2)), 'wire.response-message.add-booleans-runtime-error'],
    ] as const) {
      const res = await ctx.setup(`${what}, answered RUNTIME_ERROR`, async () => {
        const answer = await conn.start(term);
        expectType(answer, 'RUNTIME_ERROR', what);
        return answer;
      }, { seeAlso: owner });
      if (res.error_type !== undefined) {
        seen++;
        ctx.expect(listed.has(res.error_type), `${what}: error_type ${res.error_type} is not an ErrorType value (${Object.keys(ErrorType).join(', ')})`);
      }
    }
    // error_type "may be filled in" (line 38): with none filled in, no value was there to judge.
    if (!seen) ctx.inconclusive('neither RUNTIME_ERROR carried an error_type, so no value could be checked against the list');
  },
);

export const checks = [oneStringDatum, backtraceOnEveryError, framesOutermostFirst, errorTypeListed];
