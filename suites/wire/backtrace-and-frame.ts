// Section "Backtrace and Frame" of wire-protocol.md: what one frame says.
import { FrameType } from '../../src/clients/wire/schema.ts';
import { r } from '../../src/clients/wire/terms.ts';
import { check } from '../../src/core/check.ts';
import type { FrameMsg } from '../../src/clients/wire/codec.ts';
import { errorControl, raisedByError } from './controls.ts';
import { expectType } from './support.ts';

const section = 'Backtrace and Frame';
const file = 'wire-protocol.md';

function show(frames: FrameMsg[] | undefined): string {
  return `[${(frames ?? []).map((f) => (f.type === FrameType.OPT ? `OPT ${f.opt}` : f.type === FrameType.POS ? `POS ${f.pos}` : `type ${f.type}`)).join(', ')}]`;
}

export const posFrameIndex = check(
  {
    id: 'wire.backtrace-and-frame.pos-frame-index',
    title: 'An error in a positional argument gives a POS frame holding that argument\'s index',
    protocol: 'wire',
    section,
    level: 'MUST',
    spec: { file, line: 58, quote: 'POS=1 error in a positional argument' },
    touches: ['term:DATUM', 'term:ERROR', 'term:MAKE_ARRAY'],
    faults: ['pos-one-based'],
  },
  async (ctx) => {
    const conn = await ctx.wire.connect();
    await errorControl(ctx, conn, 'conformance-error');
    const res = await conn.start(r.makeArray(10, 11, r.error('conformance-error')));
    expectType(res, 'RUNTIME_ERROR', 'MAKE_ARRAY(10, 11, ERROR(...))');
    // The error in hand must be the one ERROR raised: another (a term not served) stands elsewhere.
    raisedByError(ctx, res, 'conformance-error', 'MAKE_ARRAY(10, 11, ERROR("conformance-error"))');
    const frames = res.backtrace?.frames ?? [];
    ctx.expect(
      frames.length === 1 && frames[0].type === FrameType.POS && frames[0].pos === 2n,
      `the error is in positional argument 2 of MAKE_ARRAY: expected frames [POS 2], got ${show(frames)}`,
    );
  },
);

export const optFrameName = check(
  {
    id: 'wire.backtrace-and-frame.opt-frame-name',
    title: 'An error in an optional argument gives an OPT frame holding its name',
    protocol: 'wire',
    section,
    level: 'MUST',
    spec: { file, line: 58, quote: 'OPT=2 error in an optional argument' },
    touches: ['term:DATUM', 'term:ERROR', 'term:MAKE_OBJ'],
    faults: ['opt-frame-as-pos'],
  },
  async (ctx) => {
    const conn = await ctx.wire.connect();
    await errorControl(ctx, conn, 'conformance-error');
    // MAKE_OBJ takes its fields as optional arguments.
    const res = await conn.start(r.makeObj({ fine: 1, broken: r.error('conformance-error') }));
    expectType(res, 'RUNTIME_ERROR', 'MAKE_OBJ{fine: 1, broken: ERROR(...)}');
    raisedByError(ctx, res, 'conformance-error', 'MAKE_OBJ{fine: 1, broken: ERROR("conformance-error")}');
    const frames = res.backtrace?.frames ?? [];
    ctx.expect(
      frames.length === 1 && frames[0].type === FrameType.OPT && frames[0].opt === 'broken',
      `the error is in optional argument "broken": expected frames [OPT broken], got ${show(frames)}`,
    );
  },
);

export const checks = [posFrameIndex, optFrameName];
