// Section "Query (message)" of wire-protocol.md: fields of the Query and its global options.
import { describeResponse } from '../../src/clients/wire/codec.ts';
import { r } from '../../src/clients/wire/terms.ts';
import { check } from '../../src/core/check.ts';
import { control, OWNER } from './controls.ts';
import { expectReply, expectType, show, values } from './support.ts';

const section = 'Query (message)';
const file = 'wire-protocol.md';

export const obsoleteNoreplyIgnored = check(
  {
    id: 'wire.query-message.obsolete-noreply-ignored',
    title: 'OBSOLETE_noreply = true is ignored: the query is still answered',
    protocol: 'wire',
    section,
    level: 'MUST',
    spec: { file, line: 21, quote: 'ignored by the server; `noreply` must instead be put in global_optargs' },
    touches: ['term:ADD', 'term:DATUM'],
    faults: ['honour-obsolete-noreply'],
  },
  async (ctx) => {
    const conn = await ctx.wire.connect();
    await control(ctx, conn, r.add(1, 1), 2, 'START ADD(1, 1) without OBSOLETE_noreply', OWNER.ADD);
    const token = conn.send({ type: 'START', term: r.add(1, 1), obsoleteNoreply: true });
    const res = await expectReply(conn, token, 'no answer to a START with OBSOLETE_noreply = true');
    expectType(res, 'SUCCESS_ATOM', 'START with OBSOLETE_noreply = true');
    ctx.expect(values(res)[0] === 2, `START ADD(1, 1) with OBSOLETE_noreply = true: expected 2, got ${show(values(res))}`);
  },
);

export const noreplyTrueNotAnswered = check(
  {
    id: 'wire.query-message.noreply-true-not-answered',
    title: 'A START with global optarg noreply = true gets no response; NOREPLY_WAIT still completes',
    protocol: 'wire',
    section,
    level: 'SHOULD',
    spec: { file, line: 27, quote: 'Known global_optargs keys: `noreply` (maps to true or false)' },
    touches: ['term:ADD', 'term:DATUM'],
    faults: ['noreply-ignored'],
    reliesOn: ['wire.query-operations.noreply-wait'],
  },
  async (ctx) => {
    const conn = await ctx.wire.connect();
    // Answered without noreply, the same query is one that runs here: an error answer to it is no half-built server's.
    await control(ctx, conn, r.add(1, 1), 2, 'START ADD(1, 1) without noreply', OWNER.ADD);
    const token = conn.send({ type: 'START', term: r.add(1, 1), globalOptargs: { noreply: true } });
    await ctx.setup('NOREPLY_WAIT after the noreply START, answered WAIT_COMPLETE', async () => {
      expectType(await conn.noreplyWait(), 'WAIT_COMPLETE', 'NOREPLY_WAIT after a noreply START');
    }, { seeAlso: 'wire.query-operations.noreply-wait' });
    await conn.quiet(ctx.timeouts.quietMs);
    const answered = conn.received.find((res) => res.token === token);
    ctx.expect(!answered, `START with noreply = true was answered: ${show(answered && describeResponse(answered))}`);
  },
);

export const noreplyFalseAnswered = check(
  {
    id: 'wire.query-message.noreply-false-answered',
    title: 'A START with global optarg noreply = false is answered as usual',
    protocol: 'wire',
    section,
    level: 'SHOULD',
    spec: { file, line: 27, quote: 'Known global_optargs keys: `noreply` (maps to true or false)' },
    touches: ['term:ADD', 'term:DATUM'],
    faults: ['noreply-any-value'],
  },
  async (ctx) => {
    const conn = await ctx.wire.connect();
    await control(ctx, conn, r.add(2, 3), 5, 'START ADD(2, 3) without noreply', OWNER.ADD);
    const token = conn.send({ type: 'START', term: r.add(2, 3), globalOptargs: { noreply: false } });
    const res = await expectReply(conn, token, 'no answer to a START with noreply = false');
    expectType(res, 'SUCCESS_ATOM', 'START with noreply = false');
    ctx.expect(values(res)[0] === 5, `expected 5, got ${show(values(res))}`);
  },
);

export const checks = [obsoleteNoreplyIgnored, noreplyTrueNotAnswered, noreplyFalseAnswered];
