// Values the engine computes with: datums (plain JSON-like values), lazy streams, functions,
// and references into the in-memory store (databases, tables, single rows), plus changefeeds.
import type { JsValue, TermMsg } from '../../../src/clients/wire/codec.ts';
import type { ReqlError } from './errors.ts';

/** Where the rows of a selection live, so that writes on a selection know what to change. */
export interface TableRef {
  kind: 'table';
  db: string;
  name: string;
}

export interface DbRef {
  kind: 'db';
  name: string;
}

/** A SingleSelection: one row of a table, by primary key (GET). */
export interface RowRef {
  kind: 'row';
  table: TableRef;
  key: JsValue;
}

/** A lazy sequence: items are produced only as batches are requested (RANGE with no bound is infinite). */
export class Stream {
  constructor(
    readonly items: Iterator<JsValue>,
    /** True for streams without end (RANGE with no argument); reading one out whole is an error. */
    readonly infinite = false,
    /** Set for a StreamSelection: the table its rows come from (writes on it change that table). */
    readonly source?: TableRef,
    /**
     * What RethinkDB's TYPE_OF calls this selection: TABLE_SLICE (a range of a table's index:
     * BETWEEN, ORDER_BY with an index) or SELECTION<ARRAY> (a table ordered without an index).
     */
    readonly selectionKind?: 'TABLE_SLICE' | 'SELECTION<ARRAY>',
  ) {}

  static of(values: Iterable<JsValue>, infinite = false, source?: TableRef): Stream {
    return new Stream(values[Symbol.iterator](), infinite, source);
  }

  /** An item read ahead by `take(n, true)`, handed out first by the next take. */
  private ahead: IteratorResult<JsValue> | undefined;

  private next(): IteratorResult<JsValue> {
    const r = this.ahead ?? this.items.next();
    this.ahead = undefined;
    return r;
  }

  /**
   * Up to `n` items; `done` when the stream has no more. A full batch is `done` only when
   * `lookAhead` is set and the stream turns out to have ended; otherwise the end is found by
   * the next take (an empty final batch).
   */
  take(n: number, lookAhead = false): { batch: JsValue[]; done: boolean } {
    const batch: JsValue[] = [];
    while (batch.length < n) {
      const r = this.next();
      if (r.done) return { batch, done: true };
      batch.push(r.value);
    }
    if (lookAhead && !this.infinite) {
      this.ahead = this.items.next();
      if (this.ahead.done) return { batch, done: true };
    }
    return { batch, done: false };
  }
}

/**
 * A changefeed: changes arrive while the query is open and are handed out by CONTINUE; `notes`
 * are the ResponseNote values that describe the stream kind.
 */
export class Feed {
  readonly pending: JsValue[] = [];
  private listener: (() => void) | undefined;
  private closer: (() => void) | undefined;
  closed = false;

  constructor(readonly notes: number[]) {}

  push(change: JsValue): void {
    if (this.closed) return;
    this.pending.push(change);
    this.listener?.();
  }

  /** Called on every push until replaced (undefined stops it). */
  onPush(listener: (() => void) | undefined): void {
    this.listener = listener;
  }

  onClose(closer: () => void): void {
    this.closer = closer;
  }

  close(): void {
    this.closed = true;
    this.listener = undefined;
    this.closer?.();
  }
}

export interface Func {
  kind: 'func';
  params: number[];
  body: TermMsg;
  /** Variables visible where the function was written. */
  scope: ReadonlyMap<number, Value>;
}

/** ASC/DESC of a field name or a function, for ORDER_BY. */
export interface Ordering {
  kind: 'ordering';
  desc: boolean;
  by: string | Func;
}

/** The error a DEFAULT handler is running for (ERROR with no argument rethrows it). */
export type Caught = ReqlError | undefined;

export type Value = JsValue | Stream | Func | DbRef | TableRef | RowRef | Feed | Ordering;

export function isStream(v: Value): v is Stream {
  return v instanceof Stream;
}

export function isFeed(v: Value): v is Feed {
  return v instanceof Feed;
}

function kindOf(v: Value): string | undefined {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Stream) && !(v instanceof Feed)
    ? ((v as { kind?: unknown }).kind as string | undefined)
    : undefined;
}

export function isFunc(v: Value): v is Func {
  return kindOf(v) === 'func';
}

export function isTable(v: Value): v is TableRef {
  return kindOf(v) === 'table';
}

export function isDb(v: Value): v is DbRef {
  return kindOf(v) === 'db';
}

export function isRow(v: Value): v is RowRef {
  return kindOf(v) === 'row';
}

export function isOrdering(v: Value): v is Ordering {
  return kindOf(v) === 'ordering';
}

/** True for engine-internal values that are not datums. */
export function isReference(v: Value): boolean {
  return v instanceof Stream || v instanceof Feed || kindOf(v) !== undefined && ['func', 'table', 'db', 'row', 'ordering'].includes(kindOf(v)!);
}

/** The type name TYPE_OF reports and error messages use. */
export function typeName(v: Value): string {
  if (v === null) return 'NULL';
  if (v instanceof Stream) return v.source ? (v.selectionKind ?? 'SELECTION<STREAM>') : 'STREAM';
  if (v instanceof Feed) return 'STREAM';
  switch (kindOf(v)) {
    case 'func':
      return 'FUNCTION';
    case 'table':
      return 'TABLE';
    case 'db':
      return 'DB';
    case 'row':
      return 'SELECTION<OBJECT>';
    case 'ordering':
      return 'ORDERING';
  }
  if (Array.isArray(v)) return 'ARRAY';
  switch (typeof v) {
    case 'boolean':
      return 'BOOL';
    case 'number':
      return 'NUMBER';
    case 'string':
      return 'STRING';
    default: {
      const reql = (v as Record<string, JsValue>).$reql_type$;
      // Grouped data is not a pseudotype to the user: RethinkDB's TYPE_OF says GROUPED_DATA.
      if (reql === 'GROUPED_DATA') return 'GROUPED_DATA';
      return typeof reql === 'string' ? `PTYPE<${reql}>` : 'OBJECT';
    }
  }
}

/**
 * A datum as RethinkDB prints it in error messages (cJSON's formatted print: keys sorted, one a
 * line, tab-indented; arrays on one line), so that messages that quote rows read as RethinkDB's do
 * (`Duplicate primary key \`id\`:\n{\n\t"id":\t1\n}...`, which its tests compare as values).
 */
export function printDatum(v: JsValue, depth = 0): string {
  if (Array.isArray(v)) return v.length ? `[${v.map((x) => printDatum(x, depth)).join(', ')}]` : '[]';
  if (v && typeof v === 'object') {
    const keys = Object.keys(v).sort();
    if (!keys.length) return '{}';
    const pad = '\t'.repeat(depth + 1);
    return `{\n${keys.map((k) => `${pad}${JSON.stringify(k)}:\t${printDatum((v as Record<string, JsValue>)[k], depth + 1)}`).join(',\n')}\n${'\t'.repeat(depth)}}`;
  }
  return JSON.stringify(v);
}

/**
 * Selections that RethinkDB's range terms cannot take again (transformation.yaml, sindex/api.yaml):
 * the results of BETWEEN (no second BETWEEN) and of an indexed ORDER_BY (no second one).
 */
export const rangedBy = { between: new WeakSet<Stream>(), indexOrder: new WeakSet<Stream>() };
