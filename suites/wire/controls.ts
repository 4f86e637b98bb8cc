// Positive controls of the WIRE section files (outside the term catalogue): before a check
// judges how a query is answered, it sees the terms that query is built from answer as the
// catalogue says. A term a server does not serve (a half-built server's "Term X is not
// implemented.", a server implementing no query at all) then ends the check inconclusive,
// naming the term and the check that owns its rule, instead of failing a rule about something else.
import { describeResponse, type JsValue, type ResponseMsg } from '../../src/clients/wire/codec.ts';
import type { WireConnection } from '../../src/clients/wire/connection.ts';
import { term, type TermLike } from '../../src/clients/wire/terms.ts';
import type { WireCheckContext } from '../../src/core/check.ts';
import { CheckFailure } from '../../src/core/errors.ts';
import { deepEqual, ResponseType, show, summary, typeOf, valueOf } from './support.ts';

/**
 * The checks owning the rules of the terms the controls use (named as `seeAlso`). They are not
 * declared in `reliesOn`: the control itself sees the little it needs (ADD(1, 2) is 3), and a
 * deviation elsewhere in a term's rule (ADD of arrays) says nothing about the rule checked here.
 */
export const OWNER = {
  ADD: 'wire.term-catalogue.arithmetic.add-concatenates',
  DIV: 'wire.term-catalogue.arithmetic.number-results',
  EQ: 'wire.term-catalogue.comparison-and-logic.comparisons-over-all-arguments',
  NOT: 'wire.term-catalogue.comparison-and-logic.not-takes-bool',
  RANGE: 'wire.term-catalogue.sequences.range-forms',
  BETWEEN: 'wire.term-catalogue.sequences.between-half-open',
  ORDER_BY: 'wire.term-catalogue.sequences.order-by-index',
  ERROR: 'wire.term-catalogue.core-and-data.error-raises-its-message',
} as const;

const ERRORS: number[] = [ResponseType.CLIENT_ERROR, ResponseType.COMPILE_ERROR, ResponseType.RUNTIME_ERROR];

/** Whether the response is one of the three failure types. */
export function isError(res: ResponseMsg): boolean {
  return ERRORS.includes(res.type!);
}

/** The one message datum of an error response, as text ('' when there is none). */
export function messageOf(res: ResponseMsg): string {
  const [first] = describeResponse(res).response as unknown[];
  return typeof first === 'string' ? first : show(first);
}

/**
 * The positive control: `query` (built from the terms the check relies on) answers `expected`,
 * as an atom or as the items of a sequence (a scalar also as a one-item sequence). Otherwise the
 * check ends inconclusive: the term is not served here, or not as its own check wants.
 */
export async function control(ctx: Pick<WireCheckContext, 'setup'>, conn: WireConnection, query: TermLike, expected: JsValue, what: string, seeAlso?: string): Promise<void> {
  await ctx.setup(
    `positive control: ${what} answers ${show(expected)}`,
    async () => {
      const got = await valueOf(conn, query, what);
      const same = deepEqual(got, expected) || (!Array.isArray(expected) && deepEqual(got, [expected]));
      if (!same) throw new CheckFailure(`${what} should answer ${show(expected)}, got ${show(got)}`);
    },
    seeAlso ? { seeAlso } : {},
  );
}

/**
 * The query the check needs to run was answered with an error: it did not run here (a term not
 * served, a server implementing no query), so nothing it would have shown can be judged.
 */
export function ranOrInconclusive(ctx: Pick<WireCheckContext, 'inconclusive'>, res: ResponseMsg, what: string, seeAlso?: string): void {
  if (!isError(res)) return;
  ctx.inconclusive(`${what} was answered ${typeOf(res)} ${show(messageOf(res))}: the query did not run here, so there is nothing to judge`, seeAlso ? { seeAlso } : {});
}

/**
 * The control of a check about an error in ERROR's argument (a backtrace, its frames): the
 * RUNTIME_ERROR in hand is the one ERROR(`text`) raised, its message holding `text`; another error
 * (a term not served, a server implementing no query) says nothing about where ERROR stands.
 */
export function raisedByError(ctx: Pick<WireCheckContext, 'inconclusive'>, res: ResponseMsg, text: string, what: string): void {
  if (res.type === ResponseType.RUNTIME_ERROR && !messageOf(res).includes(text)) {
    ctx.inconclusive(`${what} was answered ${summary(res)} ${show(messageOf(res))}, not with the error ERROR("${text}") raises: another term failed first, so the frames say nothing about ERROR's position`, { seeAlso: OWNER.ERROR });
  }
}

/**
 * The positive control of a check about where an error stands: ERROR(`text`) on its own is
 * answered RUNTIME_ERROR with `text` in its message. Otherwise inconclusive: the ERROR term is
 * not served here, or raises otherwise (its own check judges that).
 */
export async function errorControl(ctx: Pick<WireCheckContext, 'setup'>, conn: WireConnection, text: string): Promise<void> {
  await ctx.setup(
    `positive control: ERROR("${text}") answers RUNTIME_ERROR with its message`,
    async () => {
      const res = await conn.start(term('ERROR', [text]));
      if (res.type !== ResponseType.RUNTIME_ERROR || !messageOf(res).includes(text)) {
        throw new CheckFailure(`ERROR("${text}") should be answered RUNTIME_ERROR holding "${text}", got ${summary(res)} ${show(describeResponse(res).response)}`);
      }
    },
    { seeAlso: OWNER.ERROR },
  );
}
