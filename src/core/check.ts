// The check model: one literal metadata object next to one body with a uniform signature.
import type { EvidenceLog } from './evidence.ts';
import type { WireSession } from '../clients/wire/session.ts';
import type { CloudSession } from '../clients/cloud/session.ts';
import type { BuildSession } from '../clients/build/session.ts';

export type Protocol = 'wire' | 'cloud' | 'build';
export const PROTOCOLS: readonly Protocol[] = ['wire', 'cloud', 'build'];
export type Level = 'MUST' | 'SHOULD';

/** Where in ../shared/spec the tested sentence stands, and a short verbatim quote of it. */
export interface SpecCitation {
  file: string;
  line: number;
  quote: string;
}

export interface CheckMeta<P extends Protocol = Protocol> {
  /** Stable, dotted: `<protocol>.<section>.<behaviour>`. Reports and baselines key on it. */
  id: string;
  title: string;
  protocol: P;
  /** The document heading the behaviour comes from. */
  section: string;
  /** MUST where the text states a rule, SHOULD where it implies one. */
  level: Level;
  spec: SpecCitation;
  /** Faults of the embedded reference target, each of which must make this check fail. */
  faults: string[];
  /** e.g. `destructive`, `slow`, `needs:authKey`. */
  tags?: string[];
  /** WIRE: the TermType names (catalogue terms) the check exercises, for coverage listings. */
  terms?: string[];
}

export interface Timeouts {
  /** Whole check. */
  checkMs: number;
  connectMs: number;
  /** One handshake reply or one response. */
  replyMs: number;
  /** How long silence is awaited where the document says no reply comes. */
  quietMs: number;
}

export const DEFAULT_TIMEOUTS: Timeouts = { checkMs: 10_000, connectMs: 5_000, replyMs: 5_000, quietMs: 300 };

/**
 * Timeouts for a given per-check limit. A single wait must end well inside the check's limit,
 * so that a missing reply is reported by the check as what it is (e.g. "no NUL-terminated
 * handshake reply within 2000 ms") rather than as the check running out of time.
 */
export function timeoutsFor(checkMs = DEFAULT_TIMEOUTS.checkMs, overrides: Partial<Timeouts> = {}): Timeouts {
  const half = Math.max(1, Math.floor(checkMs / 2));
  return {
    checkMs,
    connectMs: Math.min(DEFAULT_TIMEOUTS.connectMs, half),
    replyMs: Math.min(DEFAULT_TIMEOUTS.replyMs, half),
    quietMs: Math.min(DEFAULT_TIMEOUTS.quietMs, half),
    ...overrides,
  };
}

export interface CheckContext {
  target: { name: string; protocol: Protocol; address: string };
  seed: number;
  /** Aborted when the check times out or the run is interrupted. */
  signal: AbortSignal;
  timeouts: Timeouts;
  evidence: EvidenceLog;
  /** Fails the check with `message` unless `condition` holds. */
  expect(condition: unknown, message: string): void;
  fail(message: string): never;
  skip(reason: string): never;
  note(text: string): void;
}

export interface WireCheckContext extends CheckContext {
  wire: WireSession;
}

export interface CloudCheckContext extends CheckContext {
  cloud: CloudSession;
}

export interface BuildCheckContext extends CheckContext {
  build: BuildSession;
}

export type ContextFor<P extends Protocol> = P extends 'wire' ? WireCheckContext : P extends 'cloud' ? CloudCheckContext : BuildCheckContext;

/** Tags a target must opt in to (`allow` in targets.config.ts) before such checks run. */
export const GATED_TAGS = ['destructive', 'load'] as const;

export interface Check<P extends Protocol = Protocol> extends CheckMeta<P> {
  run(ctx: ContextFor<P>): Promise<void>;
}

/** Declares a check. The metadata object stays literal so that a reader sees it beside its body. */
export function check<P extends Protocol>(meta: CheckMeta<P>, run: (ctx: ContextFor<P>) => Promise<void>): Check<P> {
  return { ...meta, run };
}

/** The metadata a listing or a report shows (no body). */
export function metaOf(c: Check): CheckMeta {
  const { run: _run, ...meta } = c;
  return meta;
}
