// A fuzz kind: what a campaign generates (a fast-check arbitrary of cases) and how one protocol
// runs and judges a case. WIRE kinds share one driver; the HTTP kinds (http-json for CLOUD,
// http-xml for BUILD) share another.
import type fc from 'fast-check';

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
}

/** What a campaign's scratch clean-up did: names of what it removed, and of what it could not. */
export interface ScratchCleanup {
  removed: string[];
  left: { name: string; reason: string }[];
}

export interface Violation {
  oracle: string;
  message: string;
  /** Failure shape without tokens or values: (oracle, signature) is a finding's bucket. */
  signature: string;
}

/** Outcome of a fast run (pipelined, shared connection): a suspect is confirmed by an isolated run. */
export type QuickOutcome = { status: 'passed'; shape?: string } | { status: 'suspect'; reason: string };

export interface IsolatedOutcome {
  violations: Violation[];
  /** What was received, serializable, for the finding file. */
  record: unknown;
  /** A coarse signature of the responses (corpus keeps cases with shapes not seen before). */
  shape: string;
}

/** Runs cases of one protocol against one prepared target. */
export interface FuzzDriver<C> {
  quick(c: C, lane: number): Promise<QuickOutcome>;
  isolated(c: C): Promise<IsolatedOutcome>;
  /** Is the target still answering at all (after a suspected crash or hang)? */
  alive(): Promise<boolean>;
  /** Restarts an embedded target that died or hangs; false when that is not possible. */
  recover(): Promise<boolean>;
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
  arbitrary(ctx: KindContext): fc.Arbitrary<C>;
}
