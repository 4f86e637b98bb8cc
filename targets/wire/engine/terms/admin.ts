// "Administration" terms. wire-ref is one server with one shard and one replica per table, so
// the configuration terms describe that and reconfiguration changes nothing but is validated.
import type { JsValue } from '../../../../src/clients/wire/codec.ts';
import { optDatum, optDurability, optNum, optString, str } from '../args.ts';
import { compileError, logicError, opFailed } from '../errors.ts';
import { defineTerms, type Call } from '../evaluate.ts';
import type { TableData } from '../store.ts';
import { isDb, isTable, typeName, type Value } from '../values.ts';
import { database } from './tables.ts';

/** `[Database,] STRING`: the database argument is optional (the default database otherwise). */
function dbAndName(c: Call): { db: string; name: string } {
  return { db: c.argc === 2 ? database(c, 0).name : c.env.store.defaultDb, name: str(c, c.argc - 1) };
}

function tableConfig(t: TableData): JsValue {
  return {
    id: t.id,
    name: t.ref.name,
    db: t.ref.db,
    primary_key: t.primaryKey,
    shards: [{ primary_replica: 'wire-ref', replicas: ['wire-ref'], nonvoting_replicas: [] }],
    indexes: [...t.indexes.keys()],
    write_acks: 'majority',
    durability: 'hard',
  };
}

function tableStatus(t: TableData): JsValue {
  return {
    id: t.id,
    name: t.ref.name,
    db: t.ref.db,
    status: { all_replicas_ready: true, ready_for_outdated_reads: true, ready_for_reads: true, ready_for_writes: true },
    shards: [{ primary_replicas: ['wire-ref'], replicas: [{ server: 'wire-ref', state: 'ready' }] }],
    raft_leader: 'wire-ref',
  };
}

/** The tables a Database|Table argument stands for. */
function tablesOf(c: Call, v: Value): TableData[] {
  if (isTable(v)) return [c.env.store.table(v)];
  if (isDb(v)) return [...c.env.store.tables(v.name).values()];
  throw logicError(`Expected type DATABASE or TABLE but found ${typeName(v)}.`).at({ pos: 0 });
}

/**
 * RECONFIGURE's emergency repair, as RethinkDB validates it (src/rdb_protocol/terms/db_table.cc):
 * a table at a time, nothing else asked with it, one of its two modes; wire-ref's tables never
 * lose a replica, so none needs repairing.
 */
function checkRepair(c: Call, mode: string, onDatabase: boolean): void {
  if (onDatabase) throw logicError("Can't emergency repair an entire database at once; instead you should run `reconfigure()` on each table individually.");
  if (['shards', 'replicas', 'primary_replica_tag', 'nonvoting_replica_tags'].some((o) => optDatum(c, o) !== undefined)) {
    throw logicError("In emergency repair mode, you can't specify shards, replicas, etc.");
  }
  if (mode !== 'unsafe_rollback' && mode !== 'unsafe_rollback_or_erase') throw logicError('`emergency_repair` should be "unsafe_rollback" or "unsafe_rollback_or_erase"');
  throw opFailed("This table doesn't need to be repaired.");
}

/**
 * RECONFIGURE's shards and replicas, as RethinkDB validates them: at least one shard; replicas a
 * number, or per server tag with a primary_replica_tag; wire-ref is one server tagged `default`,
 * so more replicas than that cannot be placed.
 */
function checkLayout(c: Call, shards: number | undefined, replicas: JsValue | undefined): void {
  if (shards === undefined || replicas === undefined) return;
  if (shards < 1) throw logicError('Every table must have at least one shard.');
  const primaryTag = optString(c, 'primary_replica_tag');
  const nonvoting = optDatum(c, 'nonvoting_replica_tags');
  let perTag: Record<string, number>;
  if (typeof replicas === 'number') {
    if (primaryTag !== undefined) throw logicError('`replicas` must be an OBJECT if `primary_replica_tag` is specified.');
    if (nonvoting !== undefined) throw logicError('`replicas` must be an OBJECT if `nonvoting_replica_tags` is specified.');
    perTag = { default: replicas };
  } else if (replicas && typeof replicas === 'object' && !Array.isArray(replicas)) {
    if (primaryTag === undefined) throw logicError('`primary_replica_tag` must be specified when `replicas` is an OBJECT.');
    perTag = replicas as Record<string, number>;
  } else return;
  for (const n of Object.values(perTag)) if (typeof n === 'number' && n < 0) throw logicError("Can't have a negative number of replicas");
  if (primaryTag !== undefined) {
    if (!(primaryTag in perTag)) throw opFailed(`Can't use server tag \`${primaryTag}\` for primary replicas because you specified no replicas in server tag \`${primaryTag}\`.`);
    if (perTag[primaryTag] === 0) throw opFailed('You must set `replicas` to at least one. `replicas` includes the primary replica; if there are zero replicas, there is nowhere to put the primary.');
  }
  for (const tag of Array.isArray(nonvoting) ? nonvoting : []) {
    if (typeof tag === 'string' && !(tag in perTag)) throw opFailed(`You specified that the replicas in server tag \`${tag}\` should be non-voting, but you didn't specify a number of replicas in server tag \`${tag}\`.`);
  }
  for (const [tag, n] of Object.entries(perTag)) {
    const servers = tag === 'default' ? 1 : 0;
    if (typeof n === 'number' && n > servers) {
      throw opFailed(`Can't put ${n} replicas on servers with the tag \`${tag}\` because there are only ${servers} servers with the tag \`${tag}\`. It's impossible to have more replicas of the data than there are servers.`);
    }
  }
}

/** The scope GRANT's first argument names: a database, or a table of one. */
function grantScope(v: Value): string {
  if (isDb(v)) return v.name;
  if (isTable(v)) return `${v.db}.${v.name}`;
  throw logicError(`Expected type DATABASE or TABLE but found ${typeName(v)}.`).at({ pos: 0 });
}

defineTerms({
  DB_CREATE: {
    arity: [1, 1],
    run: (c) => {
      const name = str(c, 0);
      if (!/^[A-Za-z0-9_-]+$/.test(name)) throw logicError(`Database name \`${name}\` invalid (Use A-Z, a-z, 0-9, _ and - only).`).at({ pos: 0 });
      c.env.store.createDb(name);
      return { dbs_created: 1, config_changes: [{ old_val: null, new_val: { id: name, name } }] };
    },
  },
  DB_DROP: {
    arity: [1, 1],
    run: (c) => {
      const name = str(c, 0);
      const tables = c.env.faults.has('db-drop-keeps-db') ? c.env.store.tables(name).size : c.env.store.dropDb(name);
      return { dbs_dropped: 1, tables_dropped: tables, config_changes: [{ old_val: { id: name, name }, new_val: null }] };
    },
  },
  DB_LIST: { arity: [0, 0], run: (c) => c.env.store.dbNames() },
  TABLE_CREATE: {
    arity: [1, 2],
    // Beyond line 152's list: durability and nonvoting_replica_tags, which RethinkDB accepts (meta/table.yaml).
    optargs: ['primary_key', 'shards', 'replicas', 'primary_replica_tag', 'durability', 'nonvoting_replica_tags'],
    run: (c) => {
      const { db, name } = dbAndName(c);
      const requested = optString(c, 'primary_key') ?? 'id';
      const pk = c.env.faults.has('table-create-ignores-primary-key') ? 'id' : requested;
      optNum(c, 'shards');
      const durability = optDurability(c);
      if (c.env.faults.has('table-create-options-refused')) {
        for (const opt of ['shards', 'replicas']) if (c.optarg(opt) !== undefined) throw logicError(`Unrecognized optional argument \`${opt}\`.`).at({ opt });
      }
      const t = c.env.store.createTable(db, name, pk);
      const config = tableConfig(t) as Record<string, JsValue>;
      if (durability) config.durability = durability;
      return { tables_created: 1, config_changes: [{ old_val: null, new_val: config }] };
    },
  },
  TABLE_DROP: {
    arity: [1, 2],
    run: (c) => {
      const { db, name } = dbAndName(c);
      const t = c.env.store.dropTable(db, name);
      return { tables_dropped: 1, config_changes: [{ old_val: tableConfig(t), new_val: null }] };
    },
  },
  TABLE_LIST: {
    arity: [0, 1],
    run: (c) => {
      // The fault's bug: the optional first argument is required (a wrong argument count).
      if (c.argc === 0 && c.env.faults.has('table-list-requires-db')) throw compileError('Expected 1 argument(s) to TABLE_LIST but found 0.');
      const db = c.argc === 1 ? database(c, 0).name : c.env.store.defaultDb;
      // The fault's bug: without its argument TABLE_LIST lists no database at all.
      if (c.argc === 0 && c.env.faults.has('table-list-default-empty')) return [];
      return [...c.env.store.tables(db).keys()].sort();
    },
  },
  CONFIG: {
    arity: [1, 1],
    run: (c) => {
      const v = c.arg(0);
      if (isDb(v)) return { id: c.env.store.dbId(v.name), name: v.name };
      return tableConfig(tablesOf(c, v)[0]);
    },
  },
  STATUS: { arity: [1, 1], run: (c) => tableStatus(tablesOf(c, c.arg(0))[0]) },
  WAIT: {
    arity: [0, 1],
    optargs: ['wait_for', 'timeout'],
    run: (c) => (c.env.faults.has('wait-returns-null') ? null : { ready: c.argc ? tablesOf(c, c.arg(0)).length : 0 }),
  },
  RECONFIGURE: {
    arity: [1, 1],
    // Line 152's `Database|Table` is worded like WAIT's: RethinkDB 2.3+ refuses the bare call at
    // run time, not at compile time. The variant does so too (the reference: COMPILE_ERROR).
    variantArity: [0, 1],
    optargs: ['shards', 'replicas', 'primary_replica_tag', 'nonvoting_replica_tags', 'dry_run', 'emergency_repair'],
    run: (c) => {
      if (!c.argc) throw logicError('RECONFIGURE needs a table or a database (RethinkDB 2.3+ refuses the bare call at run time).');
      const target = c.arg(0);
      const tables = tablesOf(c, target);
      // A NULL emergency_repair is no emergency repair (RethinkDB, meta/table.yaml).
      const repair = optDatum(c, 'emergency_repair') === null ? undefined : optString(c, 'emergency_repair');
      if (repair !== undefined) checkRepair(c, repair, isDb(target));
      else {
        // shards and replicas are required except in emergency repair
        const shards = optNum(c, 'shards');
        const replicas = optDatum(c, 'replicas');
        const strict = !c.env.faults.has('reconfigure-optargs-optional');
        if (strict && (shards === undefined || replicas === undefined)) throw logicError('RECONFIGURE requires both `shards` and `replicas` (except with `emergency_repair`).');
        checkLayout(c, shards, replicas);
      }
      const dryRun = optDatum(c, 'dry_run') === true;
      const changes = tables.map((t) => ({ old_val: tableConfig(t), new_val: tableConfig(t) }));
      return { reconfigured: dryRun ? 0 : tables.length, config_changes: changes, status_changes: [] };
    },
  },
  REBALANCE: {
    arity: [1, 1],
    variantArity: [0, 1],
    run: (c) => {
      if (!c.argc) throw logicError('REBALANCE needs a table or a database (RethinkDB 2.3+ refuses the bare call at run time).');
      const tables = tablesOf(c, c.arg(0));
      return { rebalanced: tables.length, status_changes: tables.map((t) => ({ old_val: tableStatus(t), new_val: tableStatus(t) })) };
    },
  },
  // The permission levels are not shown (Authentication): wire-ref follows RethinkDB's
  // (src/clustering/administration/auth/permissions.cc; meta/grant.yaml): read, write and config
  // at every scope, connect globally, each true, false or null (unset); `admin` keeps its own.
  GRANT: {
    arity: [2, 3],
    run: (c) => {
      const scope = c.argc === 3 ? grantScope(c.arg(0)) : '';
      const user = str(c, c.argc - 2);
      const asked = c.datum(c.argc - 1);
      if (typeof asked !== 'object' || asked === null || Array.isArray(asked)) throw logicError(`Expected type OBJECT but found ${typeName(asked)}.`).at({ pos: c.argc - 1 });
      if (user === 'admin') throw opFailed("The permissions of the user `admin` can't be modified.");
      const allowed = scope === '' ? ['read', 'write', 'config', 'connect'] : ['read', 'write', 'config'];
      const unexpected = Object.keys(asked).filter((k) => !['read', 'write', 'config', 'connect'].includes(k));
      if (unexpected.length) throw opFailed(`Unexpected key(s) \`${unexpected.join('`, `')}\`.`);
      if ('connect' in asked && !allowed.includes('connect')) throw opFailed('The `connect` permission is only valid at the global scope.');
      for (const [k, v] of Object.entries(asked)) if (typeof v !== 'boolean' && v !== null) throw opFailed(`Expected a boolean or null for \`${k}\`, got ${JSON.stringify(v)}.`);
      const key = `${scope}\u0000${user}`;
      const old = c.env.store.permissions.get(key) ?? null;
      const next: Record<string, boolean> = { ...(old ?? {}) };
      for (const [k, v] of Object.entries(asked)) {
        if (v === null) delete next[k];
        else next[k] = v as boolean;
      }
      const stored = Object.keys(next).length ? next : null;
      if (stored) c.env.store.permissions.set(key, stored);
      else c.env.store.permissions.delete(key);
      return { granted: 1, permissions_changes: [{ old_val: old, new_val: stored }] };
    },
  },
});
