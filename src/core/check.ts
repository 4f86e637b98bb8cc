// The check model: one literal metadata object next to one body with a uniform signature.
import type { EvidenceLog } from './evidence.ts';
import type { WireSession } from '../clients/wire/session.ts';
import type { CloudSession } from '../clients/cloud/session.ts';
import type { BuildSession } from '../clients/build/session.ts';
import { CODE_ROOT, MODULE_EXT } from './paths.ts';

export type Protocol = 'wire' | 'cloud' | 'build';
export const PROTOCOLS: readonly Protocol[] = ['wire', 'cloud', 'build'];
export type Level = 'MUST' | 'SHOULD';

/** Where in the protocol document the tested sentence stands, and a short verbatim quote of it. */
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
  /**
   * The routes (`GET /account/events/{eventId}`, relative to the protocol's base: `/v4` for CLOUD)
   * the check sends requests to, set-up included. Selection (`--touches`), reports and the
   * section-only servers of the proof matrix read it; a test fails a check whose requests reach
   * a route it does not declare. WIRE checks name their terms in `terms` instead.
   */
  touches?: string[];
  /**
   * Shared state the check changes (`cloud:account`, `cloud:settings`, `build:project:home`): the
   * runner never runs it beside another check that writes or reads the same name.
   */
  writes?: string[];
  /** Shared state the check reads and that another check's write would disturb (see `writes`). */
  reads?: string[];
  /**
   * The checks that own the rules this check's set-up relies on (paging, filtering, create). The
   * runner runs them first; when one of them failed in the same run, this check ends
   * inconclusive ("relies on <id>, which failed"), so one deviation is reported once.
   */
  reliesOn?: string[];
  /**
   * Where the rule is one that a server implementing nothing (`doNothing`: every request refused
   * as not found, every query a RUNTIME_ERROR) or accepting everything (`acceptAll`: 200 with an
   * empty body) really keeps, why: the proof matrix lets such a check pass there.
   */
  keptBy?: { doNothing?: string; acceptAll?: string };
  /**
   * The file that declares the check (relative to the project), filled in by `check()`: the
   * runner names the line of that file an outcome came from, and the meta test uses it to prove
   * a fault makes the check fail at its own assertion.
   */
  source?: string;
}

export interface Timeouts {
  /** Whole check. */
  checkMs: number;
  connectMs: number;
  /** One handshake reply or one response. */
  replyMs: number;
  /** How long silence is awaited where the document says no reply comes. */
  quietMs: number;
  /**
   * How long a check waits for what a server may do in the background (a build to finish, a
   * command's effect to become visible) before it calls the behaviour unobserved (inconclusive).
   * Real build services take minutes: raise it, and `checkMs` above it, in targets.config.ts.
   */
  backgroundMs: number;
}

export const DEFAULT_TIMEOUTS: Timeouts = { checkMs: 10_000, connectMs: 5_000, replyMs: 5_000, quietMs: 300, backgroundMs: 5_000 };

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
    // Leaves a quarter of the check's time for what comes after the wait.
    backgroundMs: Math.min(DEFAULT_TIMEOUTS.backgroundMs, Math.floor(checkMs * 0.75)),
    ...overrides,
  };
}

export interface CheckContext {
  target: { name: string; protocol: Protocol; address: string };
  /** The running check's own metadata (its terms, touches, reliesOn), for helpers that judge by it. */
  meta: CheckMeta;
  seed: number;
  /** Aborted when the check times out or the run is interrupted. */
  signal: AbortSignal;
  timeouts: Timeouts;
  evidence: EvidenceLog;
  /** Fails the check with `message` unless `condition` holds. */
  expect(condition: unknown, message: string): void;
  fail(message: string): never;
  /** Not run here: a role, fixture or option this target's configuration does not give. */
  skip(reason: string): never;
  /**
   * Runs one set-up step: what the check needs before it can test its rule. Anything inside that
   * does not hold (a refused request, an `expect`, a helper's assertion) ends the check as
   * *inconclusive*, naming `step` and, as `seeAlso`, the check that tests that rule where one
   * exists; it is never reported as the check's own deviation.
   */
  setup<T>(step: string, fn: () => Promise<T> | T, opts?: { seeAlso?: string }): Promise<T>;
  /** Ends the check as inconclusive: the rule could not be tested or observed on this target. */
  inconclusive(reason: string, opts?: { seeAlso?: string }): never;
  /** A remark kept in every report, passed checks included (what a pass could or could not see). */
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

/**
 * Tags a target must opt in to (`allow` in targets.config.ts) before such checks run: `destructive`
 * changes state (and undoes it), `load` sends bursts, `irreversible` spends what cannot be undone
 * through the API (enabling a paid service): a second run on the same server cannot test it again.
 */
export const GATED_TAGS = ['destructive', 'load', 'irreversible'] as const;

export interface Check<P extends Protocol = Protocol> extends CheckMeta<P> {
  run(ctx: ContextFor<P>): Promise<void>;
}

/** Declares a check. The metadata object stays literal so that a reader sees it beside its body. */
export function check<P extends Protocol>(meta: CheckMeta<P>, run: (ctx: ContextFor<P>) => Promise<void>): Check<P> {
  return { ...meta, source: meta.source ?? callerFile(), run };
}

/** The project-relative file of the code that called `check()` (from the stack; no I/O). */
function callerFile(): string | undefined {
  const frames = stackFiles(new Error().stack);
  return frames.find((f) => !f.file.endsWith(`/core/check${MODULE_EXT}`))?.file;
}

// The clone's root, or dist/ of the installed package (then the files are the built .js ones).
const PROJECT_ROOT = CODE_ROOT.pathname;

/** The project-relative `file` and `line` of each frame of a stack that lies inside the project. */
export function stackFiles(stack: string | undefined): { file: string; line: number }[] {
  const out: { file: string; line: number }[] = [];
  for (const m of (stack ?? '').matchAll(/(?:file:\/\/)?(\/[^\s():]+\.[cm]?[jt]s):(\d+):\d+/g)) {
    const abs = decodeURI(m[1]);
    // A dependency's frame is not the project's; the installed package itself lies in a node_modules.
    if (!abs.startsWith(PROJECT_ROOT) || abs.slice(PROJECT_ROOT.length).includes('node_modules/')) continue;
    out.push({ file: abs.slice(PROJECT_ROOT.length), line: Number(m[2]) });
  }
  return out;
}

/** The metadata a listing or a report shows (no body). */
export function metaOf(c: Check): CheckMeta {
  const { run: _run, ...meta } = c;
  return meta;
}
