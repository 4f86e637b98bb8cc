// Section "Query operations" of wire-protocol.md.
import { r } from '../../src/clients/wire/terms.ts';
import { check } from '../../src/core/check.ts';
import { expectReply, expectType, show, summary, values } from './support.ts';

const section = 'Query operations';
const file = 'wire-protocol.md';

export const noreplyWaitCompletes = check(
  {
    id: 'wire.query-operations.noreply-wait',
    title: 'NOREPLY_WAIT is answered WAIT_COMPLETE',
    protocol: 'wire',
    section,
    level: 'MUST',
    spec: { file, line: 126, quote: '| NOREPLY_WAIT | type, unique token | WAIT_COMPLETE |' },
    touches: [],
    faults: ['noreply-wait-wrong-type'],
  },
  async (ctx) => {
    const conn = await ctx.wire.connect();
    const res = await conn.noreplyWait();
    expectType(res, 'WAIT_COMPLETE', 'NOREPLY_WAIT');
  },
);

export const serverInfo = check(
  {
    id: 'wire.query-operations.server-info',
    title: 'SERVER_INFO is answered SERVER_INFO with one datum',
    protocol: 'wire',
    section,
    level: 'MUST',
    spec: { file, line: 127, quote: '| SERVER_INFO | type | SERVER_INFO |' },
    touches: [],
    faults: ['server-info-as-atom'],
  },
  async (ctx) => {
    const conn = await ctx.wire.connect();
    const res = await conn.serverInfo();
    expectType(res, 'SERVER_INFO', 'SERVER_INFO query');
    ctx.expect(res.response.length === 1, `expected 1 datum in the SERVER_INFO response, got ${summary(res)}`);
  },
);

export const tokensFetchTheirOwnBatches = check(
  {
    id: 'wire.query-operations.tokens-fetch-own-batches',
    title: 'CONTINUE fetches the next batch of the stream started with that token, with two streams open',
    protocol: 'wire',
    section,
    level: 'MUST',
    spec: { file, line: 129, quote: 'Tokens are unique per connection and serve to match responses to queries and to fetch batches' },
    touches: ['term:DATUM', 'term:RANGE'],
    faults: ['single-cursor'],
  },
  async (ctx) => {
    const conn = await ctx.wire.connect();
    // Two streams left open: each must come back partial, or there is no batch to fetch.
    const [a] = await ctx.setup('two streams of 3000 items, each answered SUCCESS_PARTIAL', async () => {
      const first = await conn.start(r.range(0, 3000));
      const second = await conn.start(r.range(100_000, 103_000));
      expectType(first, 'SUCCESS_PARTIAL', 'START RANGE(0, 3000)');
      expectType(second, 'SUCCESS_PARTIAL', 'START RANGE(100000, 103000)');
      return [first, second];
    }, { seeAlso: 'wire.limits.batches-under-1000' });
    const aNext = await expectReply(conn, conn.send({ type: 'CONTINUE', token: a.token! }), `CONTINUE for token ${a.token}`);
    const expected = a.response.length;
    const got = values(aNext)[0];
    ctx.expect(aNext.token === a.token, `CONTINUE for token ${a.token} was answered with token ${aNext.token}`);
    ctx.expect(
      got === expected,
      `CONTINUE for token ${a.token} (RANGE(0, 3000), ${expected} items received) should resume at ${expected}, got ${show(got)} (items of another stream?)`,
    );
  },
);

export const checks = [noreplyWaitCompletes, serverInfo, tokensFetchTheirOwnBatches];
