// The in-memory database of wire-ref: databases of tables of rows keyed by primary key, the
// secondary-index definitions of each table, and the changefeeds listening to each table.
// One store per server, shared by its connections (a write on one is seen by all).
import type { JsValue } from '../../../src/clients/wire/codec.ts';
import { logicError, opFailed } from './errors.ts';
import type { Feed, Func, TableRef } from './values.ts';

export type Row = Record<string, JsValue>;

export interface IndexDef {
  fn: Func;
  multi: boolean;
  geo: boolean;
  /** Variant only: when (ms since the epoch) the index finishes building; it is not ready before. */
  readyAt?: number;
}

/** Variant only: an index finishes building this long after INDEX_CREATE (INDEX_WAIT answers then). */
export const VARIANT_INDEX_BUILD_MS = 250;

/** True while an index is still being built (only the variant builds in the background). */
export function building(def: IndexDef | undefined): boolean {
  if (def?.readyAt === undefined) return false;
  if (Date.now() < def.readyAt) return true;
  def.readyAt = undefined;
  return false;
}

/**
 * A change as changefeeds and return_changes deliver it. The document names no field of a change
 * (lines 150, 171): the reference says old_val/new_val, the variant before/after (`asDelivered`).
 */
export function asDelivered(change: { old_val?: Row | null; new_val?: Row | null }, variant: boolean | undefined): JsValue {
  if (!variant) return change as JsValue;
  const out: Record<string, JsValue> = {};
  if ('old_val' in change) out.before = change.old_val ?? null;
  if ('new_val' in change) out.after = change.new_val ?? null;
  return out;
}

/** A change as the store reports it to its listeners. */
export interface Change {
  old_val: Row | null;
  new_val: Row | null;
}

export class TableData {
  readonly rows = new Map<string, Row>();
  readonly indexes = new Map<string, IndexDef>();
  readonly listeners = new Set<(change: Change) => void>();
  writeHook: Func | null = null;

  constructor(
    readonly id: string,
    readonly ref: TableRef,
    readonly primaryKey: string,
  ) {}

  get(key: JsValue): Row | undefined {
    return this.rows.get(keyOf(key));
  }

  /** Stores `row` (or deletes the row at `key` when `row` is null) and tells the changefeeds. */
  write(key: JsValue, row: Row | null): void {
    const k = keyOf(key);
    const old = this.rows.get(k) ?? null;
    if (row === null) this.rows.delete(k);
    else this.rows.set(k, row);
    for (const l of this.listeners) l({ old_val: old, new_val: row });
  }

  /** Rows in primary-key order, as the reference database reads a table. */
  all(compare: (a: JsValue, b: JsValue) => number): Row[] {
    return [...this.rows.values()].sort((a, b) => compare(a[this.primaryKey], b[this.primaryKey]));
  }

  subscribe(feed: Feed, listener: (change: Change) => void): void {
    this.listeners.add(listener);
    feed.onClose(() => this.listeners.delete(listener));
  }
}

/** Primary keys are compared as their JSON text (numbers and strings never collide). */
export function keyOf(key: JsValue): string {
  return JSON.stringify(key);
}

export class Store {
  private readonly dbs: Map<string, Map<string, TableData>>;
  private nextId = 1;
  private readonly dbIds = new Map<string, string>();
  /** GRANT's permissions, by scope ('' global, 'db', 'db.table') and user. */
  readonly permissions = new Map<string, Record<string, boolean>>();

  /**
   * The default database (TABLE_LIST and TABLE without a database use it). Its name is not
   * stated (line 152): `test` in the reference, `default` in the variant.
   */
  constructor(readonly defaultDb = 'test') {
    this.dbs = new Map([[defaultDb, new Map()]]);
  }

  dbNames(): string[] {
    return [...this.dbs.keys()];
  }

  hasDb(name: string): boolean {
    return this.dbs.has(name);
  }

  /** A database's id: a UUID given when it is first asked for, as RethinkDB's config rows have (meta/dbs.yaml). */
  dbId(name: string): string {
    let id = this.dbIds.get(name);
    if (!id) this.dbIds.set(name, (id = `00000000-0000-4000-9000-${String(this.nextId++).padStart(12, '0')}`));
    return id;
  }

  createDb(name: string): void {
    if (this.dbs.has(name)) throw opFailed(`Database \`${name}\` already exists.`);
    this.dbs.set(name, new Map());
    this.dbIds.delete(name);
  }

  /** Drops a database; returns how many tables it held. */
  dropDb(name: string): number {
    const tables = this.dbs.get(name);
    if (!tables) throw opFailed(`Database \`${name}\` does not exist.`);
    this.dbs.delete(name);
    return tables.size;
  }

  tables(db: string): Map<string, TableData> {
    const tables = this.dbs.get(db);
    if (!tables) throw opFailed(`Database \`${db}\` does not exist.`);
    return tables;
  }

  table(ref: TableRef): TableData {
    const t = this.tables(ref.db).get(ref.name);
    if (!t) throw opFailed(`Table \`${ref.db}.${ref.name}\` does not exist.`);
    return t;
  }

  createTable(db: string, name: string, primaryKey: string): TableData {
    const tables = this.tables(db);
    if (tables.has(name)) throw opFailed(`Table \`${db}.${name}\` already exists.`);
    if (!/^[A-Za-z0-9_-]+$/.test(name)) throw logicError(`Table name \`${name}\` invalid (Use A-Z, a-z, 0-9, _ and - only).`);
    const t = new TableData(`00000000-0000-4000-8000-${String(this.nextId++).padStart(12, '0')}`, { kind: 'table', db, name }, primaryKey);
    tables.set(name, t);
    return t;
  }

  dropTable(db: string, name: string): TableData {
    const tables = this.tables(db);
    const t = tables.get(name);
    if (!t) throw opFailed(`Table \`${db}.${name}\` does not exist.`);
    tables.delete(name);
    return t;
  }
}
