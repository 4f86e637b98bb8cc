// Errors the engine raises; the server turns them into CLIENT_ERROR / COMPILE_ERROR /
// RUNTIME_ERROR responses. Frames are prepended while the error travels up the term tree,
// which leaves them outermost first, as the document orders them.
import { ErrorType, FrameType } from '../../../src/clients/wire/schema.ts';
import { Refusal } from '../../refusal.ts';

export interface BacktraceFrame {
  type: number;
  pos?: bigint;
  opt?: string;
}

export class ReqlError extends Refusal {
  readonly frames: BacktraceFrame[] = [];
  constructor(
    readonly responseType: 'CLIENT_ERROR' | 'COMPILE_ERROR' | 'RUNTIME_ERROR',
    message: string,
    readonly errorType?: number,
  ) {
    super(message);
  }

  at(frame: { pos: number } | { opt: string }): this {
    this.frames.unshift('pos' in frame ? { type: FrameType.POS, pos: BigInt(frame.pos) } : { type: FrameType.OPT, opt: frame.opt });
    return this;
  }
}

/**
 * Not an error: the query cannot be answered yet (the variant's INDEX_WAIT on an index still
 * being built). The server evaluates the query again at `readyAt` and answers then, meanwhile
 * answering the connection's other queries.
 */
export class NotYet extends Error {
  constructor(readonly readyAt: number) {
    super('not ready yet');
  }
}

export const compileError = (message: string) => new ReqlError('COMPILE_ERROR', message);
export const logicError = (message: string) => new ReqlError('RUNTIME_ERROR', message, ErrorType.QUERY_LOGIC);
export const userError = (message: string) => new ReqlError('RUNTIME_ERROR', message, ErrorType.USER);
export const nonExistence = (message: string) => new ReqlError('RUNTIME_ERROR', message, ErrorType.NON_EXISTENCE);
export const opFailed = (message: string) => new ReqlError('RUNTIME_ERROR', message, ErrorType.OP_FAILED);

/**
 * ERROR with no argument (RethinkDB's EMPTY_USER error): a DEFAULT whose fallback raises it
 * rethrows the error it caught, or answers NULL when its first argument was NULL
 * (src/rdb_protocol/terms/error.cc, default_term_t; default.yaml `r.expr(null).default(r.error())`).
 */
export class EmptyError extends ReqlError {
  constructor() {
    super('RUNTIME_ERROR', 'Empty ERROR term outside a default block.', ErrorType.QUERY_LOGIC);
  }
}

/** The absent-value error (a missing field, an index out of range) that DEFAULT and FILTER's implicit default catch. */
export function isAbsent(err: unknown): err is ReqlError {
  return err instanceof ReqlError && err.errorType === ErrorType.NON_EXISTENCE;
}
