// Section "Limits" of wire-protocol.md.
import { r } from '../../src/clients/wire/terms.ts';
import { check } from '../../src/core/check.ts';
import { ResponseType, summary } from './support.ts';

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
    faults: ['batch-1000', 'no-batching', 'last-batch-unbounded'],
  },
  async (ctx) => {
    const conn = await ctx.wire.connect();
    let res = await conn.start(r.range(2500));
    if (res.type !== ResponseType.SUCCESS_PARTIAL && res.type !== ResponseType.SUCCESS_SEQUENCE) {
      ctx.inconclusive(`RANGE(2500) was answered ${summary(res)}, not as a sequence of batches: no batch to examine`);
    }
    for (let batch = 1; batch <= 2500; batch++) {
      ctx.expect(res.response.length < 1000, `batch ${batch} of RANGE(2500): expected fewer than 1000 datums, got ${summary(res)}`);
      if (res.type !== ResponseType.SUCCESS_PARTIAL) return;
      res = await conn.continue(res.token!);
    }
  },
);

export const checks = [batchesUnder1000];
