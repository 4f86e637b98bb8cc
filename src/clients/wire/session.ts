// What a WIRE check holds as `ctx.wire`: fresh connections to the target, all recorded in the
// check's evidence and all closed when the check ends.
import type { Timeouts } from '../../core/check.ts';
import type { EvidenceLog } from '../../core/evidence.ts';
import { WireConnection, type WireEndpoint } from './connection.ts';
import type { HandshakeOptions } from './handshake.ts';

export interface WireTargetInfo extends WireEndpoint {
  /** The key the target expects; undefined when the config does not say. */
  authKey?: string;
  maxFrameBytes?: number;
}

export class WireSession {
  private readonly connections: WireConnection[] = [];

  constructor(
    readonly target: WireTargetInfo,
    private readonly evidence: EvidenceLog,
    private readonly timeouts: Timeouts,
  ) {}

  /** The configured authorization key, or undefined (checks that need it skip). */
  get authKey(): string | undefined {
    return this.target.authKey;
  }

  /** A connection after a `SUCCESS` handshake (V0_4, PROTOBUF, the configured key unless overridden). */
  async connect(handshake: HandshakeOptions = {}): Promise<WireConnection> {
    const conn = await WireConnection.open({ ...this.options(), authKey: this.target.authKey ?? '', ...handshake });
    this.connections.push(conn);
    return conn;
  }

  /** A bare TCP connection, for checks that drive the handshake themselves. */
  async socket(): Promise<WireConnection> {
    const conn = await WireConnection.connect(this.options());
    this.connections.push(conn);
    return conn;
  }

  dispose(): void {
    for (const c of this.connections) c.close();
  }

  private options() {
    return {
      host: this.target.host,
      port: this.target.port,
      connectTimeoutMs: this.timeouts.connectMs,
      replyTimeoutMs: this.timeouts.replyMs,
      maxFrameBytes: this.target.maxFrameBytes,
      evidence: this.evidence,
      id: this.connections.length + 1,
    };
  }
}
