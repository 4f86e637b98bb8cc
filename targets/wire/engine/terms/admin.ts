// "Administration" terms. wire-ref is one server with one shard and one replica per table, so
// the configuration terms describe that and reconfiguration changes nothing but is validated.
import type { JsValue } from '../../../../src/clients/wire/codec.ts';
import { optDatum, optDurability, optNum, optString, str } from '../args.ts';
import { compileError, logicError } from '../errors.ts';
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
    optargs: ['primary_key', 'shards', 'replicas', 'primary_replica_tag', 'durability'],
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
      if (isDb(v)) return { id: v.name, name: v.name };
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
      const tables = tablesOf(c, c.arg(0));
      const repair = optString(c, 'emergency_repair');
      if (repair === undefined) {
        // shards and replicas are required except in emergency repair
        const shards = optNum(c, 'shards');
        const replicas = optDatum(c, 'replicas');
        const strict = !c.env.faults.has('reconfigure-optargs-optional');
        if (strict && (shards === undefined || replicas === undefined)) throw logicError('RECONFIGURE requires both `shards` and `replicas` (except with `emergency_repair`).');
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
  GRANT: {
    arity: [2, 3],
    run: (c) => {
      const user = str(c, c.argc - 2);
      const permissions = c.datum(c.argc - 1);
      return { granted: 1, permissions_changes: [{ old_val: null, new_val: permissions, user } as JsValue] };
    },
  },
});
