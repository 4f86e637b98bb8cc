// Section "Message framing" of wire-protocol.md.
import { setTimeout as sleep } from 'node:timers/promises';
import { encodeQuery, frame } from '../../src/clients/wire/codec.ts';
import { QueryType } from '../../src/clients/wire/schema.ts';
import { r } from '../../src/clients/wire/terms.ts';
import { check } from '../../src/core/check.ts';
import { TargetError } from '../../src/core/errors.ts';
import { control, OWNER, ranOrInconclusive } from './controls.ts';
import { expectReply, expectType, show, summary, values } from './support.ts';

const section = 'Message framing';
const file = 'wire-protocol.md';

function startFrame(token: bigint, value: number): Buffer {
  return frame(encodeQuery({ type: QueryType.START, token, query: r.add(value, 0).msg }));
}

export const responseSizePrefix = check(
  {
    id: 'wire.message-framing.response-size-prefix',
    title: 'Responses are framed by a 4-byte little-endian size of the serialized Response',
    protocol: 'wire',
    section,
    level: 'MUST',
    spec: { file, line: 117, quote: 'Server to client: 4-byte little-endian size of the serialized Response' },
    touches: ['term:ADD', 'term:DATUM'],
    faults: ['length-big-endian'],
  },
  async (ctx) => {
    const conn = await ctx.wire.connect();
    const token = conn.send({ type: 'START', term: r.add(20, 22) });
    let res;
    try {
      res = await conn.next(token);
    } catch (err) {
      // A size the frame reader cannot use (too large, or a body that is no Response) is the deviation.
      if (err instanceof TargetError) ctx.fail(`response frame does not follow the little-endian size prefix: ${err.message}`);
      throw err;
    }
    // The frame was read; only the value it holds shows it was read whole, and an error holds none (ADD not served here).
    ranOrInconclusive(ctx, res, 'START ADD(20, 22)', OWNER.ADD);
    if (!res.response.length) ctx.inconclusive(`START ADD(20, 22) was answered ${summary(res)}: a frame holding no value cannot show it was read whole`, { seeAlso: 'wire.response-message.single-value-atom' });
    expectType(res, 'SUCCESS_ATOM', 'START ADD(20, 22)');
    ctx.expect(values(res)[0] === 42, `expected the framed response to hold 42, got ${show(values(res))}`);
  },
);

export const querySplitAcrossWrites = check(
  {
    id: 'wire.message-framing.query-split-across-writes',
    title: 'A query frame that arrives in several TCP writes is reassembled by its size prefix',
    protocol: 'wire',
    section,
    level: 'SHOULD',
    spec: { file, line: 116, quote: 'Client to server: 4-byte little-endian size of the serialized Query, then the serialized Query' },
    touches: ['term:ADD', 'term:DATUM'],
    faults: ['assume-whole-frames'],
  },
  async (ctx) => {
    const conn = await ctx.wire.connect();
    // The same query sent whole is answered: what the pieces change is then the framing alone.
    await control(ctx, conn, r.add(7, 0), 7, 'START ADD(7, 0) sent in one write', OWNER.ADD);
    const token = conn.nextToken();
    const bytes = startFrame(token, 7);
    // Pieces: half of the size prefix, the rest of the prefix with part of the body, the rest.
    const cuts = [2, 4 + Math.floor((bytes.length - 4) / 2), bytes.length];
    let from = 0;
    for (const to of cuts) {
      conn.write(bytes.subarray(from, to), { piece: `${from}..${to} of ${bytes.length}` });
      from = to;
      await sleep(25); // separate TCP segments
    }
    const res = await expectReply(conn, token, `no answer to a query frame sent in ${cuts.length} writes`);
    expectType(res, 'SUCCESS_ATOM', 'START ADD(7, 0) sent in pieces');
    ctx.expect(values(res)[0] === 7, `expected 7, got ${show(values(res))}`);
  },
);

export const twoQueriesOneWrite = check(
  {
    id: 'wire.message-framing.two-queries-one-write',
    title: 'Two query frames in one TCP write are both answered',
    protocol: 'wire',
    section,
    level: 'SHOULD',
    spec: { file, line: 116, quote: 'Client to server: 4-byte little-endian size of the serialized Query, then the serialized Query' },
    touches: ['term:ADD', 'term:DATUM'],
    faults: ['assume-whole-frames'],
  },
  async (ctx) => {
    const conn = await ctx.wire.connect();
    // One frame per write is answered: what two in one write change is then the framing alone.
    await control(ctx, conn, r.add(1, 0), 1, 'START ADD(1, 0) sent alone', OWNER.ADD);
    const first = conn.nextToken();
    const second = conn.nextToken();
    conn.write(Buffer.concat([startFrame(first, 1), startFrame(second, 2)]), { frames: 2 });
    for (const [token, expected] of [[first, 1], [second, 2]] as const) {
      const res = await expectReply(conn, token, `no answer to frame ${expected} of 2 sent in one write`);
      expectType(res, 'SUCCESS_ATOM', `frame ${expected} of 2`);
      ctx.expect(values(res)[0] === expected, `frame ${expected} of 2: expected ${expected}, got ${show(values(res))}`);
    }
  },
);

export const checks = [responseSizePrefix, querySplitAcrossWrites, twoQueriesOneWrite];
