// Section "Errors" of wire-protocol.md: the shape every failure response shares.
import { describeResponse, type ResponseMsg } from '../../src/clients/wire/codec.ts';
import type { WireConnection } from '../../src/clients/wire/connection.ts';
import { DatumType, ErrorType, names, nameOf } from '../../src/clients/wire/schema.ts';
import { r } from '../../src/clients/wire/terms.ts';
import { check, type WireCheckContext } from '../../src/core/check.ts';
import { errorControl, isError, raisedByError } from './controls.ts';
import { expectType, show, summary, typeOf } from './support.ts';

const section = 'Errors';
const file = 'wire-protocol.md';

const KINDS = ['CLIENT_ERROR', 'COMPILE_ERROR', 'RUNTIME_ERROR'] as const;

/**
 * The three failure types, provoked the ways the document itself gives as examples, and every
 * error response they drew. The rule under test holds for every error response, so each error in
 * hand is judged whatever type it has and whichever provocation drew it (an unknown token answered
 * RUNTIME_ERROR is still an error response): only a type that no provocation drew is left untested,
 * and `judge` then ends the check inconclusive, naming the check that owns that provocation.
 */
async function errorsInHand(ctx: WireCheckContext, conn: WireConnection, rule: (kind: string, res: ResponseMsg) => string | undefined): Promise<void> {
  const provocations = [
    ['CONTINUE for unknown token 987654', () => conn.continue(987_654n), 'CLIENT_ERROR', 'wire.states.continue-unknown-token'],
    ['NOT with 2 arguments', () => conn.start(r.not(true, false)), 'COMPILE_ERROR', 'wire.response-message.too-many-arguments-compile-error'],
    ['ERROR("conformance-error")', () => conn.start(r.error('conformance-error')), 'RUNTIME_ERROR', 'wire.term-catalogue.core-and-data.error-raises-its-message'],
  ] as const;
  const seen = new Set<string>();
  const broken: string[] = [];
  const unprovoked: string[] = [];
  for (const [what, send, expected, owner] of provocations) {
    const res = await send();
    if (!isError(res)) {
      unprovoked.push(`${what} was answered ${summary(res)}, not ${expected} (see ${owner})`);
      continue;
    }
    const kind = typeOf(res);
    seen.add(kind);
    const wrong = rule(kind, res);
    if (wrong) broken.push(`${what}, answered ${kind}: ${wrong}`);
    if (kind !== expected) unprovoked.push(`${what} was answered ${kind}, not ${expected} (see ${owner})`);
  }
  if (broken.length) ctx.fail(broken.join('; '));
  const unseen = KINDS.filter((k) => !seen.has(k));
  if (unseen.length) {
    ctx.inconclusive(`no ${unseen.join(' or ')} response was drawn (${unprovoked.join('; ')}); the ${[...seen].join(', ') || 'no'} response(s) in hand kept the rule`);
  }
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
    faults: ['error-message-as-object', 'unknown-token-error-object-message'],
  },
  async (ctx) => {
    const conn = await ctx.wire.connect();
    await errorsInHand(ctx, conn, (kind, res) => {
      if (res.response.length === 1 && res.response[0].type === DatumType.R_STR) return undefined;
      const types = res.response.map((d) => nameOf(names.datumType, d.type));
      return `${kind} should carry exactly one R_STR datum, got ${summary(res)} of type ${types.join(', ') || 'none'} ${show(describeResponse(res).response)}`;
    });
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
    faults: ['no-backtrace', 'unknown-token-error-no-backtrace'],
  },
  async (ctx) => {
    const conn = await ctx.wire.connect();
    await errorsInHand(ctx, conn, (kind, res) => (res.backtrace === undefined ? `${kind} response has no backtrace field` : undefined));
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
