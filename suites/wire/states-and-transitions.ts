// Section "States and transitions" (per-token query life cycle) of wire-protocol.md.
import { r } from '../../src/clients/wire/terms.ts';
import { check } from '../../src/core/check.ts';
import type { ResponseMsg } from '../../src/clients/wire/codec.ts';
import { control, OWNER } from './controls.ts';
import { expectType, received, ResponseType, show, summary, values } from './support.ts';

const section = 'States and transitions';
const file = 'wire-protocol.md';

/** A response in protocol terms first, then its one datum where it has one. */
function describe(res: ResponseMsg): string {
  const text = received(res);
  return text === summary(res) && res.response.length === 1 ? `${text} ${show(values(res)[0])}` : text;
}

export const continueUntilSequence = check(
  {
    id: 'wire.states.continue-until-sequence',
    title: 'CONTINUE after SUCCESS_PARTIAL yields the following items, ending with SUCCESS_SEQUENCE',
    protocol: 'wire',
    section,
    level: 'MUST',
    spec: { file, line: 91, quote: 'client keeps sending CONTINUE until SUCCESS_SEQUENCE' },
    touches: ['term:DATUM', 'term:RANGE'],
    faults: ['continue-restarts', 'stream-as-atom'],
  },
  async (ctx) => {
    const total = 2500;
    const conn = await ctx.wire.connect();
    // RANGE is served here: a short one answers its items (as an atom's array or a sequence, either way).
    await control(ctx, conn, r.range(3), [0, 1, 2], 'RANGE(3)', OWNER.RANGE);
    let res = await conn.start(r.range(total));
    let received = 0;
    for (let batch = 1; batch <= total + 1; batch++) {
      // The response type first: a stream is a Sequence, not one DATUM (line 82), and comes in batches (line 184).
      ctx.expect(
        res.type === ResponseType.SUCCESS_PARTIAL || res.type === ResponseType.SUCCESS_SEQUENCE,
        `${batch === 1 ? 'START' : `CONTINUE ${batch - 1}`} of RANGE(${total}): got ${describe(res)} where SUCCESS_PARTIAL or SUCCESS_SEQUENCE was expected`,
      );
      const items = values(res);
      items.forEach((v, i) => {
        ctx.expect(v === received + i, `batch ${batch} of RANGE(${total}), ${summary(res)}: datum ${i} should be the number ${received + i}, got ${show(v)}`);
      });
      received += items.length;
      ctx.expect(received <= total, `RANGE(${total}) yielded more than ${total} items over ${batch} batches`);
      if (res.type === ResponseType.SUCCESS_PARTIAL) {
        res = await conn.continue(res.token!);
        continue;
      }
      ctx.expect(received === total, `SUCCESS_SEQUENCE after ${received} of ${total} items`);
      // All of it in the first response: no CONTINUE was needed, so the rule was not exercised.
      if (batch === 1) ctx.inconclusive(`RANGE(${total}) came whole in one SUCCESS_SEQUENCE, so no CONTINUE was exercised`, { seeAlso: 'wire.limits.batches-under-1000' });
      return;
    }
    // No line says a partial batch holds items, but a stream that never ends is no answer.
    ctx.fail(`RANGE(${total}) did not end with SUCCESS_SEQUENCE within ${total + 1} batches (${received} items received)`);
  },
);

export const continueUnknownToken = check(
  {
    id: 'wire.states.continue-unknown-token',
    title: 'CONTINUE for a token with no open stream is answered CLIENT_ERROR',
    protocol: 'wire',
    section,
    level: 'MUST',
    spec: { file, line: 93, quote: '| (none) | CONTINUE for unknown token | - | - | CLIENT_ERROR |' },
    touches: [],
    faults: ['unknown-token-runtime-error'],
  },
  async (ctx) => {
    const conn = await ctx.wire.connect();
    const res = await conn.continue(987_654n);
    if (res.type !== ResponseType.CLIENT_ERROR) {
      // Only a server that serves CONTINUE for a known token refuses an unknown one for its token: see a stream continued first.
      await ctx.setup('positive control: CONTINUE of RANGE(2000), answered SUCCESS_PARTIAL, is answered with its next batch', async () => {
        const started = await conn.start(r.range(2000));
        expectType(started, 'SUCCESS_PARTIAL', 'START RANGE(2000)');
        const next = await conn.continue(started.token!);
        ctx.expect(next.type === ResponseType.SUCCESS_PARTIAL || next.type === ResponseType.SUCCESS_SEQUENCE, `CONTINUE of RANGE(2000) should be answered with its next batch, got ${received(next)}`);
        if (next.type === ResponseType.SUCCESS_PARTIAL) conn.stop(started.token!);
      }, { seeAlso: 'wire.states.continue-until-sequence' });
    }
    expectType(res, 'CLIENT_ERROR', 'CONTINUE for unknown token 987654');
  },
);

export const checks = [continueUntilSequence, continueUnknownToken];
