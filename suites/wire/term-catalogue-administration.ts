// Term catalogue of wire-protocol.md, group "Administration" (line 152). Each check works in a
// database it creates for itself and drops afterwards; RECONFIGURE is only ever a dry run.
import type { JsValue } from '../../src/clients/wire/codec.ts';
import { term as t } from '../../src/clients/wire/terms.ts';
import { check } from '../../src/core/check.ts';
import { CheckInconclusive } from '../../src/core/errors.ts';
import { databaseName, expectArityRefused, expectError, expectType, expectValue, ResponseType, setupValue, show, summary, tableOrWhy, tableWith, unavailableEnds, valueOf, withDatabase, withOptionalDatabase } from './support.ts';

const section = 'Term catalogue (TermType name = number: signature)';
const file = 'wire-protocol.md';
const line = 152;

const isObject = (v: JsValue) => typeof v === 'object' && v !== null && !Array.isArray(v);

export const arity = check(
  {
    id: 'wire.term-catalogue.administration.arity',
    title: 'Administration terms refuse argument counts their signatures exclude with COMPILE_ERROR',
    protocol: 'wire',
    section,
    level: 'MUST',
    spec: { file, line, quote: 'DB_CREATE=57, DB_DROP=58: STRING -> OBJECT; DB_LIST=59: -> ARRAY' },
    touches: ['term:CONFIG', 'term:DATUM', 'term:DB', 'term:DB_CREATE', 'term:DB_DROP', 'term:DB_LIST', 'term:GRANT', 'term:REBALANCE', 'term:RECONFIGURE', 'term:STATUS', 'term:TABLE', 'term:TABLE_CREATE', 'term:TABLE_DROP', 'term:TABLE_LIST', 'term:WAIT'],
    faults: ['arity-unchecked-administration'],
    terms: ['DB_CREATE', 'DB_DROP', 'DB_LIST', 'TABLE_CREATE', 'TABLE_DROP', 'TABLE_LIST', 'CONFIG', 'STATUS', 'WAIT', 'RECONFIGURE', 'REBALANCE', 'GRANT'],
  },
  async (ctx) => {
    await withOptionalDatabase(ctx, 'administration-arity', async (conn, db, why) => {
      const table = await tableOrWhy(ctx, conn, db, why, 'rows', []);
      const tb = typeof table === 'string' ? undefined : table;
      const no = typeof table === 'string' ? table : '';
      const other = databaseName('wire.term-catalogue.administration.arity-second', ctx.seed);
      await expectArityRefused(ctx, conn, {
        DB_CREATE: { valid: t('DB_CREATE', [other]), wrong: [0, 2] },
        DB_DROP: { valid: t('DB_DROP', [other]), wrong: [0, 2] },
        DB_LIST: { valid: t('DB_LIST'), wrong: [1] },
        TABLE_CREATE: { valid: db && t('TABLE_CREATE', [db, 'made']), wrong: [0, 3], why },
        TABLE_DROP: { valid: db && t('TABLE_DROP', [db, 'made']), wrong: [0, 3], why },
        TABLE_LIST: { valid: db && t('TABLE_LIST', [db]), wrong: [2], why },
        CONFIG: { valid: db && t('CONFIG', [db]), wrong: [0, 2], why },
        STATUS: { valid: tb && t('STATUS', [tb]), wrong: [0, 2], why: no },
        // WAIT, RECONFIGURE and REBALANCE (`Table|Database`, worded alike on line 152) are not
        // refused bare: RethinkDB 2.0-2.2 runs them on the default database, 2.3+ refuses them at
        // run time. Only the count no signature of theirs allows (2) is a COMPILE_ERROR.
        WAIT: { valid: db && t('WAIT', [db]), wrong: [2], why },
        RECONFIGURE: { valid: tb && t('RECONFIGURE', [tb], { shards: 1, replicas: 1, dry_run: true }), wrong: [2], why: no },
        REBALANCE: { valid: tb && t('REBALANCE', [tb]), wrong: [2], why: no },
        GRANT: { valid: db && t('GRANT', [db, 'conformance', { read: true }]), wrong: [4], why },
      });
      await conn.start(t('DB_DROP', [other])).catch(() => undefined);
    });
  },
);

export const dbLifecycle = check(
  {
    id: 'wire.term-catalogue.administration.db-create-list-drop',
    title: 'DB_CREATE and DB_DROP answer OBJECTs, and DB_LIST (an ARRAY) shows the database only in between',
    protocol: 'wire',
    section,
    // Line 152 gives only signatures: DB_LIST showing a database between DB_CREATE and DB_DROP is read from the names.
    level: 'SHOULD',
    spec: { file, line, quote: 'DB_CREATE=57, DB_DROP=58: STRING -> OBJECT; DB_LIST=59: -> ARRAY' },
    touches: ['term:DATUM', 'term:DB_CREATE', 'term:DB_DROP', 'term:DB_LIST'],
    faults: ['db-drop-keeps-db'],
    terms: ['DB_CREATE', 'DB_DROP', 'DB_LIST'],
  },
  async (ctx) => {
    const conn = await ctx.wire.connect();
    const name = databaseName('db-create-list-drop', ctx.seed);
    const created = await valueOf(conn, t('DB_CREATE', [name]), `DB_CREATE("${name}")`);
    let dropped = false;
    try {
      ctx.expect(isObject(created), `DB_CREATE should answer an OBJECT, got ${show(created)}`);
      // A server without DB_LIST still has DB_CREATE and DB_DROP tested (their answers), and says so.
      let noList: string | undefined;
      const list = async (): Promise<JsValue | undefined> => {
        if (noList) return undefined;
        try {
          return await valueOf(conn, t('DB_LIST', []), 'DB_LIST()');
        } catch (err) {
          if (!(err instanceof CheckInconclusive)) throw err;
          noList = err.message;
          return undefined;
        }
      };
      const during = await list();
      if (!noList) ctx.expect(Array.isArray(during) && during.includes(name), `DB_LIST() should be an ARRAY holding "${name}" after DB_CREATE, got ${show(during)}`);
      const res = await valueOf(conn, t('DB_DROP', [name]), `DB_DROP("${name}")`);
      dropped = true;
      ctx.expect(isObject(res), `DB_DROP should answer an OBJECT, got ${show(res)}`);
      const after = await list();
      if (!noList) ctx.expect(Array.isArray(after) && !after.includes(name), `DB_LIST() should no longer hold "${name}" after DB_DROP, got ${show(after)}`);
      if (noList) ctx.note(`DB_LIST not tested, so the database was not seen listed between DB_CREATE and DB_DROP: ${noList}`);
    } finally {
      if (!dropped) await conn.start(t('DB_DROP', [name])).catch(() => undefined);
    }
  },
);

export const tableCreatePrimaryKey = check(
  {
    id: 'wire.term-catalogue.administration.table-create-primary-key',
    title: 'TABLE_CREATE with primary_key keys the rows by that field; TABLE_LIST and TABLE_DROP follow',
    protocol: 'wire',
    section,
    // Line 152 gives only {primary_key:STRING}: keying rows by that field is read from the option's name.
    level: 'SHOULD',
    spec: { file, line, quote: 'TABLE_CREATE=60: [Database,] STRING, {primary_key:STRING, shards:NUMBER' },
    touches: ['term:DATUM', 'term:DB', 'term:DB_CREATE', 'term:DB_DROP', 'term:GET', 'term:INSERT', 'term:TABLE', 'term:TABLE_CREATE', 'term:TABLE_DROP', 'term:TABLE_LIST'],
    faults: ['table-create-ignores-primary-key'],
    terms: ['TABLE_CREATE', 'TABLE_LIST', 'TABLE_DROP', 'GET'],
  },
  async (ctx) => {
    await withDatabase(ctx, 'table-create-primary-key', async (conn, db) => {
      // TABLE_CREATE with primary_key is the rule under test; filling the table is set-up.
      const created = await valueOf(conn, t('TABLE_CREATE', [db, 'people'], { primary_key: 'code' }), 'TABLE_CREATE(db, "people", {primary_key: "code"})');
      ctx.expect(isObject(created), `TABLE_CREATE should answer an OBJECT, got ${show(created)}`);
      const table = t('TABLE', [db, 'people']);
      await setupValue(ctx, conn, t('INSERT', [table, { code: 'x1', name: 'ann' }]), 'INSERT(table, {code: "x1", name: "ann"})', 'wire.term-catalogue.writes.insert-counts');
      await expectValue(conn, t('GET', [table, 'x1']), { code: 'x1', name: 'ann' }, 'GET(table keyed by "code", "x1")');
      await expectValue(conn, t('TABLE_LIST', [db]), ['people'], 'TABLE_LIST(db)');
      const dropped = await valueOf(conn, t('TABLE_DROP', [db, 'people']), 'TABLE_DROP(db, "people")');
      ctx.expect(isObject(dropped), `TABLE_DROP should answer an OBJECT, got ${show(dropped)}`);
      await expectValue(conn, t('TABLE_LIST', [db]), [], 'TABLE_LIST(db) after TABLE_DROP');
    });
  },
);

export const tableListDefault = check(
  {
    id: 'wire.term-catalogue.administration.table-list-default-database',
    title: 'TABLE_LIST with no argument lists the default database (an ARRAY holding a table just created there)',
    protocol: 'wire',
    section,
    level: 'MUST',
    spec: { file, line, quote: 'TABLE_LIST=62: [Database] -> ARRAY (first argument optional, default database used)' },
    touches: ['term:DATUM', 'term:TABLE_CREATE', 'term:TABLE_DROP', 'term:TABLE_LIST'],
    faults: ['table-list-requires-db', 'table-list-default-empty'],
    terms: ['TABLE_LIST'],
  },
  async (ctx) => {
    const conn = await ctx.wire.connect();
    const res = await conn.start(t('TABLE_LIST', []));
    unavailableEnds(res, t('TABLE_LIST', []), 'TABLE_LIST()');
    // The first argument is optional: refusing its absence as a wrong argument count deviates.
    ctx.expect(res.type !== ResponseType.COMPILE_ERROR, `TABLE_LIST() without its optional database should not be refused: ${summary(res)} ${show(res.response[0]?.r_str ?? '')}`);
    // The document names no default database: a server may have none to list (a RUNTIME_ERROR), which leaves the rule untested.
    if (res.type === ResponseType.RUNTIME_ERROR || res.type === ResponseType.CLIENT_ERROR) {
      ctx.inconclusive(`TABLE_LIST() failed (${summary(res)} ${show(res.response[0]?.r_str ?? '')}); the document names no default database this target would have to hold`);
    }
    const list = await valueOf(conn, t('TABLE_LIST', []), 'TABLE_LIST()');
    ctx.expect(Array.isArray(list), `TABLE_LIST() should answer an ARRAY, got ${show(list)}`);
    // The database it lists is the default one: a table created there (TABLE_CREATE without a Database) shows in it.
    const name = databaseName('default_db_table', ctx.seed);
    await ctx.setup(`TABLE_CREATE("${name}") in the default database`, async () => {
      expectType(await conn.start(t('TABLE_CREATE', [name])), 'SUCCESS_ATOM', `TABLE_CREATE("${name}") without a Database`);
    }, { seeAlso: 'wire.term-catalogue.administration.table-create-primary-key' });
    try {
      const after = await valueOf(conn, t('TABLE_LIST', []), `TABLE_LIST() after TABLE_CREATE("${name}")`);
      ctx.expect(Array.isArray(after) && after.includes(name), `TABLE_LIST() should list "${name}", just created in the default database, got ${show(after)}`);
    } finally {
      await conn.start(t('TABLE_DROP', [name])).catch(() => undefined);
    }
  },
);

export const reconfigureRequires = check(
  {
    id: 'wire.term-catalogue.administration.reconfigure-requires-shards-and-replicas',
    title: 'RECONFIGURE without shards or replicas (outside emergency repair) is refused; with both it answers an OBJECT',
    protocol: 'wire',
    section,
    // The refusal is implied by "required" on the options (line 152), not stated as a rule: SHOULD.
    level: 'SHOULD',
    spec: { file, line, quote: 'shards and replicas required except in emergency repair' },
    touches: ['term:DATUM', 'term:DB', 'term:DB_CREATE', 'term:DB_DROP', 'term:RECONFIGURE', 'term:TABLE', 'term:TABLE_CREATE'],
    faults: ['reconfigure-optargs-optional'],
    terms: ['RECONFIGURE'],
  },
  async (ctx) => {
    await withDatabase(ctx, 'reconfigure-requires', async (conn, db) => {
      const table = await tableWith(ctx, conn, db, 'rows', []);
      // The valid call first (the positive control): RECONFIGURE is there and takes a dry run.
      const res = await valueOf(conn, t('RECONFIGURE', [table], { shards: 1, replicas: 1, dry_run: true }), 'RECONFIGURE(table, {shards: 1, replicas: 1, dry_run: true})');
      ctx.expect(isObject(res), `RECONFIGURE with shards and replicas should answer an OBJECT, got ${show(res)}`);
      await expectError(conn, t('RECONFIGURE', [table], { shards: 1, dry_run: true }), 'RECONFIGURE(table, {shards: 1, dry_run: true}) without replicas');
      await expectError(conn, t('RECONFIGURE', [table], { replicas: 1, dry_run: true }), 'RECONFIGURE(table, {replicas: 1, dry_run: true}) without shards');
    });
  },
);

export const configStatusWait = check(
  {
    id: 'wire.term-catalogue.administration.config-status-wait-rebalance',
    title: 'CONFIG and STATUS answer a row (OBJECT); WAIT and REBALANCE answer an OBJECT',
    protocol: 'wire',
    section,
    level: 'MUST',
    spec: { file, line, quote: 'WAIT=177: Table|Database -> OBJECT (waits until ready)' },
    touches: ['term:CONFIG', 'term:DATUM', 'term:DB', 'term:DB_CREATE', 'term:DB_DROP', 'term:REBALANCE', 'term:STATUS', 'term:TABLE', 'term:TABLE_CREATE', 'term:WAIT'],
    faults: ['wait-returns-null'],
    terms: ['CONFIG', 'STATUS', 'WAIT', 'REBALANCE'],
  },
  async (ctx) => {
    await withDatabase(ctx, 'config-status-wait', async (conn, db) => {
      const table = await tableWith(ctx, conn, db, 'rows', []);
      for (const [what, query] of [
        ['CONFIG(table)', t('CONFIG', [table])],
        ['CONFIG(db)', t('CONFIG', [db])],
        ['STATUS(table)', t('STATUS', [table])],
        ['WAIT(table)', t('WAIT', [table])],
        ['WAIT(db)', t('WAIT', [db])],
        ['REBALANCE(table)', t('REBALANCE', [table])],
      ] as const) {
        const v = await valueOf(conn, query, what);
        ctx.expect(isObject(v), `${what} should answer an OBJECT, got ${show(v)}`);
      }
    });
  },
);

export const tableCreateOptions = check(
  {
    id: 'wire.term-catalogue.administration.table-create-shards-replicas',
    title: 'TABLE_CREATE accepts its shards and replicas options',
    protocol: 'wire',
    section,
    level: 'MUST',
    spec: { file, line, quote: '{primary_key:STRING, shards:NUMBER, replicas:NUMBER|OBJECT, primary_replica_tag:STRING} -> OBJECT' },
    touches: ['term:DATUM', 'term:DB', 'term:DB_CREATE', 'term:DB_DROP', 'term:TABLE_CREATE'],
    faults: ['table-create-options-refused'],
    terms: ['TABLE_CREATE'],
  },
  async (ctx) => {
    await withDatabase(ctx, 'table-create-options', async (conn, db) => {
      const res = await valueOf(conn, t('TABLE_CREATE', [db, 'rows'], { shards: 1, replicas: 1 }), 'TABLE_CREATE(db, "rows", {shards: 1, replicas: 1})');
      ctx.expect(isObject(res), `TABLE_CREATE should answer an OBJECT, got ${show(res)}`);
    });
  },
);

export const checks = [arity, dbLifecycle, tableCreatePrimaryKey, tableCreateOptions, tableListDefault, reconfigureRequires, configStatusWait];
