// The scratch databases of a WIRE campaign (safety.ts): created before the first case (and again
// after a restarted embedded target), dropped at the end. A plain client connection does it, one
// connection and one wait at most for each step, so a target that does not answer costs one
// case timeout there, not one per database.
import { fromDatum } from '../../src/clients/wire/codec.ts';
import { WireConnection } from '../../src/clients/wire/connection.ts';
import { ResponseType } from '../../src/clients/wire/schema.ts';
import { term } from '../../src/clients/wire/terms.ts';
import type { ScratchCleanup } from '../core/kind.ts';
import type { WireTargetHandle } from './executor.ts';

/** ok: success; otherwise why, and whether the target answered (an error response) or not. */
type Outcome = { ok: true } | { ok: false; reason: string; answered?: boolean };

/** Runs `name(db)` for each database, pipelined on one fresh connection: what each answered. */
async function runTerms(target: WireTargetHandle, timeoutMs: number, name: 'DB_CREATE' | 'DB_DROP', dbs: readonly string[]): Promise<Outcome[]> {
  let conn: WireConnection | undefined;
  const failed = (reason: string): Outcome[] => dbs.map(() => ({ ok: false, reason: reason.slice(0, 200) }));
  try {
    const { host, port } = target.endpoint();
    const deadline = Date.now() + timeoutMs;
    conn = await WireConnection.connect({ host, port, connectTimeoutMs: timeoutMs, replyTimeoutMs: timeoutMs, maxFrameBytes: target.maxFrameBytes });
    const reply = await conn.handshake({ authKey: target.authKey });
    if (reply !== 'SUCCESS') return failed('handshake refused');
    const c = conn;
    const tokens = dbs.map((db) => c.send({ type: 'START', term: term(name, [db]) }));
    const out: Outcome[] = [];
    for (const token of tokens) {
      try {
        const res = await c.next(token, Math.max(1, deadline - Date.now()));
        const message = fromDatum(res.response[0]);
        out.push(res.type === ResponseType.SUCCESS_ATOM ? { ok: true } : { ok: false, answered: true, reason: typeof message === 'string' ? message.slice(0, 200) : `response type ${res.type}` });
      } catch (err) {
        out.push({ ok: false, reason: (err as Error).message.slice(0, 200) });
      }
    }
    return out;
  } catch (err) {
    return failed((err as Error).message);
  } finally {
    conn?.close();
  }
}

/** Creates the scratch database; true when the target answered (created, or "already exists"). */
export async function createScratchDb(target: WireTargetHandle, timeoutMs: number, db: string): Promise<boolean> {
  // "already exists" is fine: a campaign of the same seed left it (it is ours by its name).
  const [r] = await runTerms(target, timeoutMs, 'DB_CREATE', [db]);
  return r.ok || r.answered === true;
}

/** Drops the scratch databases that exist; one that does not is not reported. */
export async function dropScratchDbs(target: WireTargetHandle, timeoutMs: number, dbs: readonly string[]): Promise<ScratchCleanup> {
  const out: ScratchCleanup = { removed: [], left: [] };
  const results = await runTerms(target, timeoutMs, 'DB_DROP', dbs);
  results.forEach((r, i) => {
    if (r.ok) out.removed.push(`database ${dbs[i]}`);
    else if (!/does not exist/i.test(r.reason)) out.left.push({ name: `database ${dbs[i]}`, reason: r.reason });
  });
  return out;
}
