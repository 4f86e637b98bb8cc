// A fuzz kind: what a campaign generates (a fast-check arbitrary of cases) and how one protocol
// runs and judges a case. WIRE kinds share one driver; the HTTP kinds (http-json for CLOUD,
// http-xml for BUILD) share another.
import type fc from 'fast-check';
import type { CaseSelector } from '../../src/core/registry.ts';

/** The protocol of the targets a kind fuzzes (a target's `protocol` in the config). */
export type FuzzProtocol = 'wire' | 'cloud' | 'build';

export interface KindContext {
  /** The key the target expects (handshake mutations start from the standard handshake with it). */
  authKey: string;
  /** BUILD: the login of the user the cases run as (paths under home:<user>). */
  user?: string;
  /**
   * The campaign's seed: it names the scratch resources the cases write to (WIRE database
   * `conformance_fuzz_<seed>`, BUILD project `home:<user>:conformance-fuzz-<seed>`), so that a
   * seed and path regenerate the same cases.
   */
  seed?: number;
  /**
   * CLOUD and BUILD: the target's config allows `destructive` (the embedded references do unless
   * their config says otherwise). Without it the kinds generate only requests that read, or that
   * write to scratch resources the campaign creates (see fuzz/http/kinds.ts). WIRE is always safe.
   */
  destructive?: boolean;
  /**
   * What the server implements (`--include-path`, `--include-term`…, a target's `implements`):
   * the kinds generate only cases inside it, and the driver's own requests stay inside it too.
   * Absent: everything.
   */
  select?: CaseSelector;
}

/** What a campaign's scratch clean-up did: names of what it removed, and of what it could not. */
export interface ScratchCleanup {
  removed: string[];
  left: { name: string; reason: string }[];
}

export interface Violation {
  oracle: string;
  message: string;
  /**
   * What the target did wrong, in protocol terms that depend neither on the neighbouring parts of
   * the case nor on timing: (oracle, signature) is a finding's bucket.
   */
  signature: string;
  /** The variety within a bucket (the route, the frames around it): kept as the bucket's examples. */
  detail?: string;
}

/**
 * What one case reached on the target, for the campaign's coverage: the answers it got (HTTP
 * statuses, WIRE response types), what of the server's logic they show it reached (routes, terms),
 * and whether it got past authentication and rate limits at all.
 */
export interface Cover {
  answers: string[];
  reached?: string[];
  /** The case got an answer from past the gates: not 401, 403 or 429; a WIRE handshake accepted. */
  past: boolean;
}

/** Outcome of a fast run (pipelined, shared connection): a suspect is confirmed by an isolated run. */
export type QuickOutcome = ({ status: 'passed'; shape?: string } | { status: 'suspect'; reason: string }) & { cover?: Cover };

export interface IsolatedOutcome {
  violations: Violation[];
  /** What was received, serializable, for the finding file. */
  record: unknown;
  /** A coarse signature of the responses (corpus keeps cases with shapes not seen before). */
  shape: string;
  cover?: Cover;
}

/** Runs cases of one protocol against one prepared target. */
export interface FuzzDriver<C> {
  quick(c: C, lane: number): Promise<QuickOutcome>;
  isolated(c: C): Promise<IsolatedOutcome>;
  /** Is the target still answering at all (after a suspected crash or hang)? */
  alive(): Promise<boolean>;
  /**
   * Why the target cannot be fuzzed at all before the first case (a gateway answering 502, 503 or
   * 504: no server behind it), or undefined. A target that answers, however badly, is fuzzed.
   */
  unreachable?(): Promise<string | undefined>;
  /** Restarts an embedded target that died or hangs; false when that is not possible. */
  recover(): Promise<boolean>;
  /** The driver can restart the target (an embedded one): recover() starts it anew. */
  readonly restartable?: boolean;
  serialize(c: C): unknown;
  deserialize(data: unknown): C;
  /** A readable view of the case (decoded queries), for finding files. */
  describe(c: C): unknown;
  /**
   * May this case be sent under the campaign's rules (corpus entries and replayed cases were made by
   * other campaigns)? False for a case that would change what the campaign did not create.
   */
  admits?(c: C): boolean;
  /** Creates the scratch resources the cases write to (again after a restarted target). */
  prepare?(ctx: KindContext): Promise<void>;
  /** Removes the scratch resources (what prepare and the cases created); never throws. */
  cleanup?(): Promise<ScratchCleanup>;
  /** One line: what a campaign may change on the target. */
  changes?(): string;
  close(): Promise<void>;
}

export interface FuzzKind<C> {
  name: string;
  protocol: FuzzProtocol;
  description: string;
  /** Share of the campaign's chunks, relative to the other kinds run with it (default 1). */
  weight?: number;
  /** Run only when named with --kind (not among a protocol's default kinds). */
  optIn?: boolean;
  arbitrary(ctx: KindContext): fc.Arbitrary<C>;
}
