// Section "Limits" of wire-protocol.md.
import { r } from '../../src/clients/wire/terms.ts';
import { check } from '../../src/core/check.ts';
import { encodeHandshake } from '../../src/clients/wire/handshake.ts';
import { FrameTooLarge, TargetError } from '../../src/core/errors.ts';
import { received, ResponseType, summary } from './support.ts';

const section = 'Limits';
const file = 'wire-protocol.md';

export const batchesUnder1000 = check(
  {
    id: 'wire.limits.batches-under-1000',
    title: 'Every batch of a 2500-item result holds fewer than 1000 datums',
    protocol: 'wire',
    section,
    level: 'MUST',
    spec: { file, line: 184, quote: 'Batches of results contain fewer than 1000 items' },
    touches: ['term:DATUM', 'term:RANGE'],
    faults: ['batch-1000', 'no-batching', 'last-batch-unbounded'],
  },
  async (ctx) => {
    const total = 2500;
    const conn = await ctx.wire.connect();
    let res = await conn.start(r.range(total));
    const batches: number[] = [ResponseType.SUCCESS_PARTIAL, ResponseType.SUCCESS_SEQUENCE];
    if (!batches.includes(res.type!)) {
      ctx.inconclusive(`RANGE(${total}) was answered ${received(res)}, not as a sequence of batches: no batch to examine`, { seeAlso: 'wire.states.continue-until-sequence' });
    }
    let items = 0;
    for (let batch = 1; ; batch++) {
      // A batch of 1000 or more breaks the rule whatever the rest of the stream holds.
      ctx.expect(res.response.length < 1000, `batch ${batch} of RANGE(${total}): expected fewer than 1000 datums, got ${summary(res)}`);
      items += res.response.length;
      if (res.type !== ResponseType.SUCCESS_PARTIAL) break;
      if (batch > total) ctx.inconclusive(`RANGE(${total}) did not end within ${total} batches (${items} items): the stream was not seen whole`, { seeAlso: 'wire.states.continue-until-sequence' });
      res = await conn.continue(res.token!);
      if (!batches.includes(res.type!)) ctx.inconclusive(`CONTINUE ${batch} of RANGE(${total}) was answered ${received(res)} after ${items} items: the stream was not seen whole`, { seeAlso: 'wire.states.continue-until-sequence' });
    }
    // Only the 2500 items the title names show that a result too large for one batch was split: fewer say nothing.
    if (items !== total) ctx.inconclusive(`RANGE(${total}) was answered with ${items} items in all, not ${total}: no result too large for one batch was seen`, { seeAlso: 'wire.term-catalogue.sequences.range-forms' });
    ctx.note(`${total} items in batches of fewer than 1000`);
  },
);

export const versionSentOnce = check(
  {
    id: 'wire.limits.version-sent-once',
    title: 'A second handshake on an open connection is not answered "SUCCESS" as a new handshake',
    protocol: 'wire',
    section,
    level: 'SHOULD',
    spec: { file, line: 186, quote: 'The version number is sent once per connection.' },
    touches: [],
    faults: ['second-handshake-accepted'],
    keptBy: {
      doNothing: 'what follows the handshake is read as frames before any query is answered: a server that then implements no query still takes no second version magic as a new handshake, which is the whole rule',
      acceptAll: 'what follows the handshake is read as frames before any query is answered: a server that then answers every query alike still takes no second version magic as a new handshake, which is the whole rule',
    },
  },
  async (ctx) => {
    const conn = await ctx.wire.connect();
    const key = ctx.wire.authKey ?? '';
    // After the handshake the bytes belong to the frame stream (line 116): the magic is no version number there.
    conn.write(encodeHandshake({ authKey: key }), { handshake: 'a second V0_4 handshake on the open connection' }, encodeHandshake({ authKey: '*'.repeat(Buffer.byteLength(key)) }));
    // "SUCCESS" read where a response frame's size belongs: its first four bytes as a little-endian size.
    const success = Buffer.from('SUCC').readUInt32LE(0);
    try {
      const answers = await conn.quiet(ctx.timeouts.quietMs);
      ctx.note(`answered with ${answers.length ? answers.map(summary).join(', ') : 'nothing'} within ${ctx.timeouts.quietMs} ms`);
    } catch (err) {
      if (err instanceof FrameTooLarge && err.announced === success) {
        ctx.fail('a second version magic, key and protocol magic sent on an open connection were answered "SUCCESS" as a new handshake (its bytes came where a response frame belongs)');
      }
      if (err instanceof TargetError) return ctx.note(`the connection ended: ${err.message}`);
      throw err;
    }
  },
);

export const checks = [batchesUnder1000, versionSentOnce];
