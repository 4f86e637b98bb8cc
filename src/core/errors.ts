// Typed errors. Every error the tool raises on purpose carries a stable `code`, so callers
// branch on the code (and the runner maps it to a result status) instead of parsing messages.

export type ErrorCode =
  | 'E_CHECK_FAILED'
  | 'E_CHECK_SKIPPED'
  | 'E_CHECK_INCONCLUSIVE'
  | 'E_TARGET_UNREACHABLE'
  | 'E_TARGET_TIMEOUT'
  | 'E_TARGET_CLOSED'
  | 'E_TARGET_RESET'
  | 'E_FRAME_TOO_LARGE'
  | 'E_BODY_TOO_LARGE'
  | 'E_PROTOCOL'
  | 'E_CONFIG'
  | 'E_USAGE'
  | 'E_INTERRUPTED'
  | 'E_BAIL'
  | 'E_RUN_TIMEOUT';

export class ConformanceError extends Error {
  readonly code: ErrorCode;
  constructor(code: ErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.name = new.target.name;
  }
}

/** One HTTP request and what came back, secrets redacted, as a reader needs it to reproduce. */
export interface HttpExchangeEvidence {
  request: { method: string; url: string; headers: Record<string, string>; body?: string; bodyBytes: number };
  response?: { status: number; headers: Record<string, string>; body?: string; bodyBytes: number; truncated?: boolean };
  durationMs: number;
  /** How the exchange ended when it did not end with a response. */
  error?: string;
  /** The same request as a curl command (secrets as shell variables). */
  curl: string;
}

/** One exchange unit kept as evidence: bytes on the wire plus an optional decoded view. */
export interface EvidenceItem {
  /** 'sent' / 'received' for bytes on a connection; 'http' for an HTTP exchange; 'note' for a remark. */
  direction: 'sent' | 'received' | 'http' | 'note';
  http?: HttpExchangeEvidence;
  /** Milliseconds since the check started. */
  atMs: number;
  /** Which connection of the check (1-based), when several are opened. */
  connection?: number;
  /** Hex of the bytes (truncated past the evidence cap; see `truncated`). */
  hex?: string;
  /** Byte count before any truncation. */
  bytes?: number;
  truncated?: boolean;
  /** Decoded view (a Query/Response as JSON, a handshake string...). */
  decoded?: unknown;
  text?: string;
}

/** The target deviates from the document: the check fails. */
export class CheckFailure extends ConformanceError {
  constructor(message: string) {
    super('E_CHECK_FAILED', message);
  }
}

/**
 * The rule was not tested: something the check needs first did not hold (a set-up request was
 * refused, a precondition or fixture is missing on the target), or the behaviour could not be
 * observed (one item where paging must be seen). Neither passed nor failed.
 */
export class CheckInconclusive extends ConformanceError {
  /** The set-up step that did not hold, when it was one (`ctx.setup(step, ...)`). */
  readonly step?: string;
  /** The check that tests the rule the set-up relied on, where one exists. */
  readonly seeAlso?: string;
  constructor(reason: string, opts: { step?: string; seeAlso?: string; cause?: unknown } = {}) {
    super('E_CHECK_INCONCLUSIVE', reason, { cause: opts.cause });
    this.step = opts.step;
    this.seeAlso = opts.seeAlso;
  }
}

/** The check cannot run against this target (missing configuration, unsupported feature). */
export class CheckSkipped extends ConformanceError {
  constructor(reason: string) {
    super('E_CHECK_SKIPPED', reason);
  }
}

/**
 * The target broke in a way that stops a check from judging anything: refused, reset,
 * closed, timed out, sent garbage. Maps to result status `error`.
 */
export class TargetError extends ConformanceError {}

export class TargetUnreachable extends TargetError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('E_TARGET_UNREACHABLE', message, options);
  }
}

export class TargetTimeout extends TargetError {
  readonly waitedMs: number;
  constructor(message: string, waitedMs: number) {
    super('E_TARGET_TIMEOUT', message);
    this.waitedMs = waitedMs;
  }
}

export class TargetClosed extends TargetError {
  constructor(message: string) {
    super('E_TARGET_CLOSED', message);
  }
}

export class TargetReset extends TargetError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('E_TARGET_RESET', message, options);
  }
}

export class FrameTooLarge extends TargetError {
  readonly announced: number;
  readonly limit: number;
  /** Whole frames that came before the oversized one in the same push: still owed an answer. */
  readonly before: Buffer[];
  constructor(announced: number, limit: number, before: Buffer[] = []) {
    super('E_FRAME_TOO_LARGE', `frame of ${announced} bytes exceeds the ${formatBytes(limit)} limit`);
    this.announced = announced;
    this.limit = limit;
    this.before = before;
  }
}

export class BodyTooLarge extends TargetError {
  constructor(limit: number) {
    super('E_BODY_TOO_LARGE', `response body exceeds the ${formatBytes(limit)} limit`);
  }
}

/** The target sent bytes that do not parse as the protocol's messages. */
export class ProtocolViolation extends TargetError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('E_PROTOCOL', message, options);
  }
}

/** Bad input to the tool itself: config file, options. Exit code 2. */
export class ConfigError extends ConformanceError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('E_CONFIG', message, options);
  }
}

export class UsageError extends ConformanceError {
  constructor(message: string) {
    super('E_USAGE', message);
  }
}

export class Interrupted extends ConformanceError {
  constructor(message = 'run interrupted') {
    super('E_INTERRUPTED', message);
  }
}

/** `--bail`: a check failed, so the run stops; what did not finish is skipped, naming it. */
export class Bailed extends ConformanceError {
  constructor(checkId: string) {
    super('E_BAIL', `--bail: the run stopped after ${checkId} failed`);
  }
}

/** The whole run reached --run-timeout: checks still running or not started are errors. */
export class RunTimeout extends ConformanceError {
  constructor(limitMs: number) {
    super('E_RUN_TIMEOUT', `run time limit of ${limitMs} ms reached`);
  }
}

export function formatBytes(n: number): string {
  if (n >= 1024 * 1024 && n % (1024 * 1024) === 0) return `${n / (1024 * 1024)} MiB`;
  if (n >= 1024 && n % 1024 === 0) return `${n / 1024} KiB`;
  return `${n} bytes`;
}

/** Turns a node socket error into the typed target error it stands for. */
export function targetErrorFromSocket(err: NodeJS.ErrnoException, where: string): TargetError {
  switch (err.code) {
    case 'ECONNREFUSED':
      return new TargetUnreachable(`${where}: connection refused`, { cause: err });
    case 'ECONNRESET':
    case 'EPIPE':
      return new TargetReset(`${where}: connection reset by the target`, { cause: err });
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new TargetUnreachable(`${where}: ${err.code} (${err.message})`, { cause: err });
    default:
      return new TargetReset(`${where}: ${err.code ?? 'socket error'} (${err.message})`, { cause: err });
  }
}
