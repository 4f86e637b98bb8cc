// The WIRE driver: quick runs go through pipelined lanes when the case allows, otherwise
// isolated; isolated runs are the judge of record. An embedded target lives in a worker thread
// (embedded.ts), so a target that spins forever is a finding and a restart, not a frozen fuzzer.
import { decodeQuery, describeResponse } from '../../src/clients/wire/codec.ts';
import { describeQuery } from '../../src/clients/wire/connection.ts';
import { FrameReader } from '../../src/clients/wire/frame-reader.ts';
import type { FuzzDriver, IsolatedOutcome, KindContext, QuickOutcome, ScratchCleanup } from '../core/kind.ts';
import { deserializeCase, serializeCase, type SerializedWireCase, type WireCase } from './case.ts';
import { answerNames, probeServerInfo, reachedOf, runIsolated, WireLane, type WireTargetHandle } from './executor.ts';
import { attributionAmbiguous, splitFrames } from './expect.ts';
import { dependsOnAttribution, type Violation, type WireExchange } from './oracles.ts';
import { WireSandbox } from './safety.ts';
import { createScratchDb, dropScratchDbs } from './scratch.ts';

export interface WireDriverOptions {
  target: WireTargetHandle;
  timeoutMs: number;
  lanes: number;
  /** Restarts the embedded target; absent for external targets. */
  restart?: () => Promise<void>;
  /** An embedded target (started for this campaign, nothing on it to damage). */
  embedded?: boolean;
}

export class WireDriver implements FuzzDriver<WireCase> {
  private readonly lanes: WireLane[];
  /** The campaign's scratch databases, once prepare() made them. */
  private sandbox: WireSandbox | undefined;
  /**
   * The target answered a query (the scratch database's creation, or a case that passed). One that
   * never did cannot have run a query, and trying to drop the scratch databases would cost a
   * timeout more.
   */
  private answered = false;

  constructor(private readonly opts: WireDriverOptions) {
    this.lanes = Array.from({ length: opts.lanes }, () => new WireLane(opts.target, opts.timeoutMs));
  }

  get restartable(): boolean {
    return this.opts.restart !== undefined;
  }

  async quick(c: WireCase, lane: number): Promise<QuickOutcome> {
    if (c.pipelinable) {
      try {
        const outcome = await this.lanes[lane % this.lanes.length].submit(c);
        if (outcome?.status === 'passed') this.answered = true;
        if (outcome) return outcome;
      } catch (err) {
        return { status: 'suspect', reason: (err as Error).message };
      }
    }
    const r = await this.isolated(c);
    if (!r.violations.length) this.answered = true;
    return r.violations.length ? { status: 'suspect', reason: r.violations[0].message, cover: r.cover } : { status: 'passed', shape: r.shape, cover: r.cover };
  }

  async isolated(c: WireCase): Promise<IsolatedOutcome> {
    let result;
    try {
      result = await runIsolated(c, this.opts.target, this.opts.timeoutMs);
    } catch (err) {
      const message = `could not run the case: ${(err as Error).message}`;
      const code = (err as { code?: string }).code ?? 'error';
      return { violations: [{ oracle: 'liveness', message, signature: `setup:${code}` }], record: { error: message }, shape: 'setup-error', cover: { answers: [`no answer (${code})`], past: false } };
    }
    const ex = result.exchange;
    const answers = answerNames(ex);
    // Past the gate: the target accepted a handshake (the standard one, or the case's own).
    const past = (c.handshake === 'default' || ex.handshakeReply === 'SUCCESS') && ex.responses.some((f) => f.res);
    const cover = { answers, past, reached: reachedOf(c, result.expectation, ex) };
    let violations = result.violations;
    let record = exchangeRecord(ex);
    // Which frame owes which answer is uncertain (a token shared by several frames, a malformed
    // frame beside others): before anything is reported, each frame runs alone on a fresh
    // connection. What those runs find stands, with what the whole run found that does not hang
    // on the assignment (a response's own content, a dead server); an ambiguous verdict alone is
    // never a finding.
    if (c.handshake === 'default' && violations.some(dependsOnAttribution) && attributionAmbiguous(result.expectation)) {
      const frames = splitFrames(Buffer.concat(c.writes));
      if (frames.length > 1) {
        const alone: Violation[] = [];
        const runs: unknown[] = [];
        for (const [i, f] of frames.entries()) {
          const one = await runIsolated({ handshake: 'default', writes: [f], pipelinable: false }, this.opts.target, this.opts.timeoutMs).catch(() => undefined);
          if (!one) continue;
          runs.push(exchangeRecord(one.exchange));
          for (const v of one.violations) alone.push({ ...v, message: `frame ${i + 1} of ${frames.length}, run alone: ${v.message}` });
        }
        const certain = violations.filter((v) => !dependsOnAttribution(v));
        const seen = new Set<string>();
        violations = [...certain, ...alone].filter((v) => {
          const key = `${v.oracle}|${v.signature}`;
          return seen.has(key) ? false : (seen.add(key), true);
        });
        record = { ...(record as object), ambiguous: { note: 'answers could not be attributed with certainty; each frame was run alone', withheld: result.violations.filter(dependsOnAttribution).map((v) => `${v.oracle}|${v.signature}: ${v.message}`), frames: runs } };
      }
    }
    return { violations, record, shape: shapeOf(ex), cover };
  }

  async alive(): Promise<boolean> {
    return (await probeServerInfo(this.opts.target, this.opts.timeoutMs)).ok;
  }

  async recover(): Promise<boolean> {
    if (!this.opts.restart) return false;
    for (const l of this.lanes) l.close();
    await this.opts.restart();
    // A restarted embedded target starts empty: the cases expect their scratch database.
    if (this.sandbox && (await this.alive())) this.answered = (await createScratchDb(this.opts.target, this.opts.timeoutMs, this.sandbox.db)) || this.answered;
    return this.alive();
  }

  async prepare(ctx: KindContext): Promise<void> {
    this.sandbox = new WireSandbox(ctx.seed);
    this.answered = await createScratchDb(this.opts.target, this.opts.timeoutMs, this.sandbox.db);
  }

  async cleanup(): Promise<ScratchCleanup> {
    if (!this.sandbox || !this.answered) return { removed: [], left: [] };
    return dropScratchDbs(this.opts.target, this.opts.timeoutMs, [this.sandbox.db, this.sandbox.sibling]);
  }

  changes(): string {
    const s = this.sandbox ?? new WireSandbox(undefined);
    return `may change: only its scratch databases ${s.db} and ${s.sibling} (created here, dropped at the end); queries reaching any other database are rewritten to them`;
  }

  /**
   * Every frame of the case decodes to a query confined to the scratch databases (a corpus entry or
   * a finding made by another campaign, or by a version without the sandbox). Anything goes on an
   * embedded target: it was started for this campaign.
   */
  admits(c: WireCase): boolean {
    if (this.opts.embedded) return true;
    const sandbox = this.sandbox ?? new WireSandbox(undefined);
    const bytes = Buffer.concat(c.writes);
    if (c.handshake === 'default') return sandbox.safeBytes(bytes);
    // Handshake bytes of its own: the frames start after the key (and the protocol magic, if any).
    if (bytes.length < 8) return true;
    const key = bytes.readUInt32LE(4);
    return [8 + key, 12 + key].every((at) => at > bytes.length || sandbox.safeBytes(bytes.subarray(at)));
  }

  serialize(c: WireCase): SerializedWireCase {
    return serializeCase(c, this.opts.target.authKey);
  }

  deserialize(data: unknown): WireCase {
    return deserializeCase(data as SerializedWireCase, this.opts.target.authKey);
  }

  describe(c: WireCase): unknown {
    // The frames a server would cut from the writes, decoded where they decode.
    const bytes = Buffer.concat(c.writes);
    if (c.handshake !== 'default') return { handshake: 'sent as bytes (see writes)', note: c.note };
    const frames = new FrameReader(0xffffffff).push(bytes).map((p) => {
      try {
        return describeQuery(decodeQuery(p));
      } catch (err) {
        return { malformed: (err as Error).message, bytes: p.length };
      }
    });
    return { frames, note: c.note };
  }

  async close(): Promise<void> {
    for (const l of this.lanes) l.close();
  }
}

function exchangeRecord(ex: WireExchange): unknown {
  return {
    handshakeReply: ex.handshakeReply,
    end: ex.end,
    endDetail: ex.endDetail,
    liveness: ex.liveness,
    responses: ex.responses.map((f) => ({
      hex: f.raw.toString('hex'),
      decoded: f.res ? describeResponse(f.res) : { error: f.decodeError },
    })),
  };
}

/** Response types in order plus how the exchange ended: coarse, so that the corpus stays small. */
function shapeOf(ex: WireExchange): string {
  const types = ex.responses.map((f) => f.res?.type ?? 'x').join(',');
  return `${ex.handshakeReply === undefined ? '' : ex.handshakeReply === 'SUCCESS' ? 'hs-ok;' : 'hs-err;'}${types};${ex.end}`;
}
