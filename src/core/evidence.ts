// What a check saw, kept for the report: bytes sent and received (hex) with a decoded view.
// Bounded, so that a target flooding data cannot make the report (or our memory) grow without end.
import type { EvidenceItem, HttpExchangeEvidence } from './errors.ts';

export interface EvidenceLimits {
  /** Hex is kept for at most this many bytes per item. */
  maxBytesPerItem: number;
  /** Items past this count are dropped (and counted). */
  maxItems: number;
}

export const DEFAULT_EVIDENCE_LIMITS: EvidenceLimits = { maxBytesPerItem: 4096, maxItems: 200 };

export class EvidenceLog {
  readonly items: EvidenceItem[] = [];
  dropped = 0;
  private readonly started = performance.now();

  constructor(readonly limits: EvidenceLimits = DEFAULT_EVIDENCE_LIMITS) {}

  bytes(direction: 'sent' | 'received', data: Uint8Array, extra: { connection?: number; decoded?: unknown } = {}): void {
    const cap = this.limits.maxBytesPerItem;
    const truncated = data.length > cap;
    this.push({
      direction,
      atMs: this.elapsed(),
      connection: extra.connection,
      bytes: data.length,
      hex: Buffer.from(data.buffer, data.byteOffset, Math.min(data.length, cap)).toString('hex'),
      ...(truncated ? { truncated } : {}),
      ...(extra.decoded === undefined ? {} : { decoded: extra.decoded }),
    });
  }

  http(exchange: HttpExchangeEvidence): void {
    this.push({ direction: 'http', atMs: this.elapsed(), http: exchange });
  }

  note(text: string, connection?: number): void {
    this.push({ direction: 'note', atMs: this.elapsed(), connection, text });
  }

  /** Adds a decoded view to the last item of a connection received/sent without one. */
  decoded(direction: 'sent' | 'received', connection: number | undefined, decoded: unknown): void {
    this.push({ direction, atMs: this.elapsed(), connection, decoded });
  }

  toJSON(): EvidenceItem[] {
    return this.dropped
      ? [...this.items, { direction: 'note', atMs: this.elapsed(), text: `${this.dropped} more evidence items dropped` }]
      : this.items;
  }

  private push(item: EvidenceItem): void {
    if (this.items.length >= this.limits.maxItems) {
      this.dropped++;
      return;
    }
    this.items.push(item);
  }

  private elapsed(): number {
    return Math.round((performance.now() - this.started) * 10) / 10;
  }
}
