// The WIRE driver: quick runs go through pipelined lanes when the case allows, otherwise
// isolated; isolated runs are the judge of record. An embedded target lives in a worker thread
// (embedded.ts), so a target that spins forever is a finding and a restart, not a frozen fuzzer.
import { decodeQuery, describeResponse } from '../../src/clients/wire/codec.ts';
import { describeQuery } from '../../src/clients/wire/connection.ts';
import { FrameReader } from '../../src/clients/wire/frame-reader.ts';
import type { FuzzDriver, IsolatedOutcome, QuickOutcome } from '../core/kind.ts';
import { deserializeCase, serializeCase, type SerializedWireCase, type WireCase } from './case.ts';
import { probeServerInfo, runIsolated, WireLane, type WireTargetHandle } from './executor.ts';
import type { WireExchange } from './oracles.ts';

export interface WireDriverOptions {
  target: WireTargetHandle;
  timeoutMs: number;
  lanes: number;
  /** Restarts the embedded target; absent for external targets. */
  restart?: () => Promise<void>;
}

export class WireDriver implements FuzzDriver<WireCase> {
  private readonly lanes: WireLane[];

  constructor(private readonly opts: WireDriverOptions) {
    this.lanes = Array.from({ length: opts.lanes }, () => new WireLane(opts.target, opts.timeoutMs));
  }

  async quick(c: WireCase, lane: number): Promise<QuickOutcome> {
    if (c.pipelinable) {
      try {
        const outcome = await this.lanes[lane % this.lanes.length].submit(c);
        if (outcome) return outcome;
      } catch (err) {
        return { status: 'suspect', reason: (err as Error).message };
      }
    }
    const r = await this.isolated(c);
    return r.violations.length ? { status: 'suspect', reason: r.violations[0].message } : { status: 'passed', shape: r.shape };
  }

  async isolated(c: WireCase): Promise<IsolatedOutcome> {
    let result;
    try {
      result = await runIsolated(c, this.opts.target, this.opts.timeoutMs);
    } catch (err) {
      const message = `could not run the case: ${(err as Error).message}`;
      return { violations: [{ oracle: 'liveness', message, signature: `setup:${(err as { code?: string }).code ?? 'error'}` }], record: { error: message }, shape: 'setup-error' };
    }
    return { violations: result.violations, record: exchangeRecord(result.exchange), shape: shapeOf(result.exchange) };
  }

  async alive(): Promise<boolean> {
    return (await probeServerInfo(this.opts.target, this.opts.timeoutMs)).ok;
  }

  async recover(): Promise<boolean> {
    if (!this.opts.restart) return false;
    for (const l of this.lanes) l.close();
    await this.opts.restart();
    return this.alive();
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
