// What a WIRE check holds as `ctx.wire`: fresh connections to the target, all recorded in the
// check's evidence and all closed when the check ends.
import type { Timeouts } from '../../core/check.ts';
import { TargetError } from '../../core/errors.ts';
import { neededField } from '../../config/env.ts';
import type { EvidenceLog } from '../../core/evidence.ts';
import { WireConnection, type WireEndpoint } from './connection.ts';
import type { HandshakeOptions } from './handshake.ts';

export interface WireTargetInfo extends WireEndpoint {
  /** The key the target expects; undefined when the config does not say. */
  authKey?: string;
  /** The key of a user without permission to write; undefined when the config does not name one. */
  restrictedAuthKey?: string;
  maxFrameBytes?: number;
}

export class WireSession {
  private readonly connections: WireConnection[] = [];
  private disposed = false;

  constructor(
    readonly target: WireTargetInfo,
    private readonly evidence: EvidenceLog,
    private readonly timeouts: Timeouts,
  ) {}

  /** The configured authorization key, or undefined (checks that need it skip). */
  get authKey(): string | undefined {
    return this.target.authKey;
  }

  /** The key of a user without permission to write, or undefined (the check that needs it skips). */
  get restrictedAuthKey(): string | undefined {
    return this.target.restrictedAuthKey;
  }

  /** A connection after a `SUCCESS` handshake (V0_4, PROTOBUF, the configured key unless overridden). */
  async connect(handshake: HandshakeOptions = {}): Promise<WireConnection> {
    // Owned from the TCP connect on, so that a check ended mid-handshake closes it too.
    const conn = await this.socket();
    const reply = await conn.handshake({ authKey: this.target.authKey ?? '', ...handshake });
    if (reply !== 'SUCCESS') {
      throw new TargetError('E_PROTOCOL', `handshake refused by the target: ${JSON.stringify(reply)} (check the target's ${neededField('authKey')})`);
    }
    return conn;
  }

  /** A bare TCP connection, for checks that drive the handshake themselves. */
  async socket(): Promise<WireConnection> {
    const conn = await WireConnection.connect(this.options());
    if (this.disposed) {
      // The check ended while this connection was being made.
      conn.close();
      throw new TargetError('E_TARGET_CLOSED', 'connection made after the check ended');
    }
    this.connections.push(conn);
    return conn;
  }

  dispose(): void {
    this.disposed = true;
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
