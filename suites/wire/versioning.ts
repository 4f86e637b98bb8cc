// Section "Versioning" of wire-protocol.md: the version magic numbers and their feature markers.
import type { WireConnection } from '../../src/clients/wire/connection.ts';
import { r, term as t } from '../../src/clients/wire/terms.ts';
import { check } from '../../src/core/check.ts';
import { TargetClosed, TargetError, TargetTimeout } from '../../src/core/errors.ts';
import { expectType, fn1, setupValue, show, tableWith, withDatabase } from './support.ts';

const section = 'Versioning';
const file = 'wire-protocol.md';

/** Little-endian 32-bit integer, as the handshake sends its numbers (line 10). */
function u32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n >>> 0, 0);
  return b;
}

export const unknownVersionRefused = check(
  {
    id: 'wire.versioning.unknown-version-refused',
    title: 'A handshake with a version magic none of the five listed is not answered "SUCCESS"',
    protocol: 'wire',
    section,
    level: 'SHOULD',
    spec: { file, line: 191, quote: 'The client selects the protocol version by sending one of the five magic numbers (V0_1 to V1_0) in the handshake' },
    touches: [],
    faults: ['accept-unknown-version'],
    keptBy: {
      doNothing: 'the handshake comes before any query: a server that then implements no query still refuses an unknown version magic there, which is the whole rule',
      acceptAll: 'the handshake comes before any query: a server that then answers every query alike still refuses an unknown version magic there, which is the whole rule',
    },
  },
  async (ctx) => {
    const conn = await ctx.wire.socket();
    const magic = 0x1badc0de;
    const key = Buffer.from(ctx.wire.authKey ?? '', 'utf8');
    // Laid out as a V0_4 handshake would be (magic, key, protocol), only the magic is none of the five.
    const bytes = Buffer.concat([u32(magic), u32(key.length), key, u32(0x271ffc41)]);
    let reply: string;
    try {
      reply = await conn.handshakeRaw(bytes, ctx.timeouts.replyMs, {
        decoded: { handshake: { version: `0x${magic.toString(16)} (not a listed magic)`, authKey: key.length ? `(${key.length} bytes, redacted)` : '', protocol: 'PROTOBUF' } },
        evidenceBytes: Buffer.concat([u32(magic), u32(key.length), Buffer.alloc(key.length, 0x2a), u32(0x271ffc41)]),
      });
    } catch (err) {
      // Closing the connection or staying silent is no acceptance either.
      if (err instanceof TargetClosed || err instanceof TargetTimeout) return ctx.note(`the unknown version magic was answered by no handshake reply: ${err.message}`);
      throw err;
    }
    ctx.expect(reply !== 'SUCCESS', `the handshake with version magic 0x${magic.toString(16)}, none of V0_1..V1_0, was answered "SUCCESS"; expected an error description`);
    ctx.note(`refused with ${show(reply)}`);
  },
);

export const v02Accepted = check(
  {
    id: 'wire.versioning.v0_2-accepted',
    title: 'A V0_2 handshake (magic and authorization key, no protocol magic) is accepted',
    protocol: 'wire',
    section,
    level: 'SHOULD',
    spec: { file, line: 191, quote: 'V0_2 adds an authorization key' },
    touches: [],
    faults: ['reject-v0_2'],
    keptBy: {
      doNothing: 'the handshake comes before any query, and nothing after a V0_2 handshake is asserted: a server that then implements no query still accepts V0_2 with "SUCCESS", which is the whole rule',
      acceptAll: 'the handshake comes before any query, and nothing after a V0_2 handshake is asserted: a server that then answers every query alike still accepts V0_2 with "SUCCESS", which is the whole rule',
    },
  },
  async (ctx) => {
    const conn = await ctx.wire.socket();
    let reply: string;
    try {
      reply = await conn.handshake({ version: 'V0_2', authKey: ctx.wire.authKey ?? '' });
    } catch (err) {
      if (err instanceof TargetClosed || err instanceof TargetTimeout) ctx.fail(`the V0_2 handshake (magic 0x723081e1, then the key) got no NUL-terminated reply: ${err.message}`);
      throw err;
    }
    ctx.expect(reply === 'SUCCESS', `expected "SUCCESS" for the V0_2 magic followed by the configured key, got ${show(reply)}`);
    // Which message format follows a V0_2 handshake is not stated (protocol selection came with V0_3): nothing more is asserted.
  },
);

/** Arrival of the answers to two tokens sent one after the other, in the order they came. */
function race(conn: WireConnection, slow: bigint, fast: bigint, ms: number) {
  const order: string[] = [];
  const sent = performance.now();
  const at: Record<string, number> = {};
  const track = (token: bigint, name: string) => {
    const p = conn.next(token, ms).then((res) => {
      order.push(name);
      at[name] = Math.round(performance.now() - sent);
      return res;
    });
    p.catch(() => undefined);
    return p;
  };
  return { order, at, slow: track(slow, 'slow'), fast: track(fast, 'fast') };
}

/** Waits for a promise up to nothing more than its own time-out; undefined when it failed. */
async function settled<T>(p: Promise<T>): Promise<T | undefined> {
  try {
    return await p;
  } catch (err) {
    if (err instanceof TargetError) return undefined;
    throw err;
  }
}

export const v04Parallel = check(
  {
    id: 'wire.versioning.v0_4-parallel',
    title: 'On a V0_4 connection a query that waits (a changefeed CONTINUE, an INDEX_WAIT) does not hold back a later one',
    protocol: 'wire',
    section,
    level: 'SHOULD',
    spec: { file, line: 191, quote: 'V0_4 runs queries in parallel' },
    touches: ['term:ADD', 'term:CHANGES', 'term:DATUM', 'term:DB', 'term:DB_CREATE', 'term:DB_DROP', 'term:FUNC', 'term:GET_FIELD', 'term:INDEX_CREATE', 'term:INDEX_STATUS', 'term:INDEX_WAIT', 'term:INSERT', 'term:MAKE_ARRAY', 'term:TABLE', 'term:TABLE_CREATE', 'term:VAR'],
    faults: ['serial-queries'],
    terms: ['CHANGES', 'INDEX_WAIT'],
  },
  async (ctx) => {
    const wait = ctx.timeouts.replyMs;
    await withDatabase(ctx, 'v0_4-parallel', async (conn, db) => {
      const table = await tableWith(ctx, conn, db, 'rows', [{ id: 1 }]);
      // 1. A changefeed's CONTINUE with no change to deliver: it waits, on a server that answers such a CONTINUE only with a change.
      const feed = await ctx.setup('CHANGES(table), answered SUCCESS_PARTIAL', async () => {
        const res = await conn.start(t('CHANGES', [table]));
        expectType(res, 'SUCCESS_PARTIAL', 'CHANGES(table)');
        return res;
      }, { seeAlso: 'wire.term-catalogue.sequences.changes-sequence-feed' });
      const cont = conn.send({ type: 'CONTINUE', token: feed.token! });
      const add = conn.send({ type: 'START', term: r.add(1, 2) });
      const one = race(conn, cont, add, wait);
      const fast = await settled(one.fast);
      if (fast && one.order[0] === 'fast') {
        expectType(fast, 'SUCCESS_ATOM', 'START ADD(1, 2) beside a waiting CONTINUE');
        conn.stop(feed.token!);
        return ctx.note(`ADD(1, 2) was answered after ${one.at.fast} ms while the changefeed's CONTINUE (token ${cont}) still waited for a change`);
      }
      if (!fast && !one.order.includes('slow')) {
        // Neither came: a change (written on a second connection) lets the CONTINUE go, and shows whether ADD was held back behind it.
        const other = await ctx.wire.connect();
        await setupValue(ctx, other, t('INSERT', [table, { id: 2 }]), 'INSERT(table, {id: 2}) on a second connection, to end the wait of the CONTINUE');
        const late = await settled(conn.next(add, wait));
        const index = (token: bigint) => conn.received.findIndex((res) => res.token === token);
        const after = index(cont) !== -1 && index(cont) < index(add) ? ', right after the answer to that CONTINUE' : '';
        ctx.fail(
          `START ADD(1, 2) (token ${add}), sent after the CONTINUE (token ${cont}) of a changefeed, got no answer within ${wait} ms while that CONTINUE waited for a change; ` +
            (late ? `it was answered only once a change (written on a second connection) let the CONTINUE go${after}` : 'nor after a change let the CONTINUE go'),
        );
      }
      conn.stop(feed.token!);
      await conn.quiet(ctx.timeouts.quietMs); // whatever STOP is answered with
      // The CONTINUE was answered without waiting for a change: 2. an INDEX_WAIT on an index still being built.
      await setupValue(ctx, conn, t('INDEX_CREATE', [table, 'by_id', fn1((x) => t('GET_FIELD', [x, 'id']))]), 'INDEX_CREATE(table, "by_id", x => x.id)', 'wire.term-catalogue.secondary-indexes.index-status-and-wait-shape');
      const status = await setupValue(ctx, conn, t('INDEX_STATUS', [table, 'by_id']), 'INDEX_STATUS(table, "by_id")');
      const ready = Array.isArray(status) && status.every((s) => typeof s === 'object' && s !== null && (s as Record<string, unknown>).ready === true);
      if (ready) {
        ctx.inconclusive(`no query on this target was seen to wait: the changefeed's CONTINUE was answered at once (${one.order.join(', ')}) and a new index was ready at once (${show(status)}), so whether queries run in parallel could not be observed`);
      }
      const idxWait = conn.send({ type: 'START', term: t('INDEX_WAIT', [table, 'by_id']) });
      const add2 = conn.send({ type: 'START', term: r.add(1, 2) });
      const limit = wait + 2 * ctx.timeouts.quietMs;
      const two = race(conn, idxWait, add2, limit);
      const [w, a] = [await settled(two.slow), await settled(two.fast)];
      ctx.expect(a, `START ADD(1, 2) (token ${add2}), sent after INDEX_WAIT (token ${idxWait}) on an index INDEX_STATUS called not ready, got no answer within ${limit} ms`);
      if (two.order[0] === 'fast') return ctx.note(`ADD(1, 2) was answered after ${two.at.fast} ms, before INDEX_WAIT on an index being built (answered after ${two.at.slow ?? `more than ${limit}`} ms)`);
      // INDEX_WAIT came first. Only when it really waited does that show ADD held back behind it.
      if (!w || two.at.slow < 50) ctx.inconclusive(`INDEX_WAIT on the index being built was answered within ${two.at.slow} ms, before ADD(1, 2): too soon to tell whether ADD was held back`);
      ctx.fail(`START ADD(1, 2) (token ${add2}), sent right after INDEX_WAIT (token ${idxWait}) on an index being built, was answered only after it: INDEX_WAIT after ${two.at.slow} ms, ADD after ${two.at.fast} ms`);
    });
  },
);

export const checks = [unknownVersionRefused, v02Accepted, v04Parallel];
