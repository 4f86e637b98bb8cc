// Safe WIRE fuzzing: whatever a case writes or drops, it writes or drops inside the campaign's
// scratch databases, never in a database that existed before.
//
// Terms of every TermType are generated (DB_DROP, TABLE_DROP, DELETE over DB_LIST, GRANT...), then
// rewritten so that every database they can reach is a scratch one:
//   - DB, DB_CREATE, DB_DROP: the database name becomes a scratch name (DB: the campaign's scratch
//     database; DB_CREATE and DB_DROP: its sibling, so that a case dropping "a database" does not
//     take the tables of the next cases with it);
//   - TABLE, TABLE_CREATE, TABLE_DROP, TABLE_LIST, and GRANT, which use the connection's default
//     database (or the whole server, for GRANT) when their first argument is not a database: a
//     DB term of the scratch database is put first.
// A table or database value can only come from a DB or TABLE term, so after the rewrite every
// write (INSERT, UPDATE, REPLACE, DELETE, INDEX_*, SET_WRITE_HOOK, RECONFIGURE, config updates)
// and every drop lands in a scratch database, whatever expression computes its target (a
// FUNCALL over DB_LIST included). The rewrite is a pure function of the case, so a campaign stays
// deterministic for its seed, and it is idempotent (a rewritten query is left as it is).
//
// Byte mutations (wire-bytes) can turn a safe frame into another one: a case whose frames, cut as
// the server cuts them, decode to a Query the rewrite would change is replaced by its frames
// before mutation (see safeMutatedWrites).
import type { QueryMsg, TermMsg } from '../../src/clients/wire/codec.ts';
import { decodeQuery } from '../../src/clients/wire/codec.ts';
import { FrameReader } from '../../src/clients/wire/frame-reader.ts';
import { DatumType, TermType } from '../../src/clients/wire/schema.ts';

/** The campaign's scratch database for `seed` (DB terms), and its sibling (DB_CREATE, DB_DROP). */
export function wireScratch(seed: number | undefined): { db: string; sibling: string } {
  const db = `conformance_fuzz_${seed ?? 0}`;
  return { db, sibling: `${db}_x` };
}

const T = {
  DATUM: TermType.DATUM,
  DB: TermType.DB,
  DB_CREATE: TermType.DB_CREATE,
  DB_DROP: TermType.DB_DROP,
  TABLE: TermType.TABLE,
  TABLE_CREATE: TermType.TABLE_CREATE,
  TABLE_DROP: TermType.TABLE_DROP,
  TABLE_LIST: TermType.TABLE_LIST,
  GRANT: TermType.GRANT,
};

/** Terms whose first argument is an optional database (the default database, or the server, without it). */
const DB_FIRST = new Set([T.TABLE, T.TABLE_CREATE, T.TABLE_DROP, T.TABLE_LIST, T.GRANT]);

const nameDatum = (name: string): TermMsg => ({ type: T.DATUM, datum: { type: DatumType.R_STR, r_str: name } });
/** A DATUM term of the string `name` (a datum is read by its type: other fields of it are ignored). */
const isNameDatum = (t: TermMsg | undefined, name: string) =>
  t?.type === T.DATUM && t.datum?.type === DatumType.R_STR && t.datum.r_str === name && !t.args?.length && !t.optargs?.length;

export class WireSandbox {
  readonly db: string;
  readonly sibling: string;
  private readonly dbTerm: TermMsg;

  constructor(seed: number | undefined) {
    ({ db: this.db, sibling: this.sibling } = wireScratch(seed));
    this.dbTerm = { type: T.DB, args: [nameDatum(this.db)] };
  }

  /** The term with every database it can reach replaced by a scratch one (the same object when nothing changes). */
  term(t: TermMsg): TermMsg {
    let args = t.args;
    if (args?.length) {
      let changed = false;
      const next = args.map((a) => {
        const s = this.term(a);
        if (s !== a) changed = true;
        return s;
      });
      if (changed) args = next;
    }
    let optargs = t.optargs;
    if (optargs?.length) {
      let changed = false;
      const next = optargs.map((o) => {
        if (!o.val) return o;
        const val = this.term(o.val);
        if (val === o.val) return o;
        changed = true;
        return { ...o, val };
      });
      if (changed) optargs = next;
    }
    const type = t.type;
    if (type === T.DB || type === T.DB_CREATE || type === T.DB_DROP) {
      const name = type === T.DB ? this.db : this.sibling;
      if (!isNameDatum(args?.[0], name)) args = [nameDatum(name), ...(args ?? []).slice(1)];
    } else if (type !== undefined && DB_FIRST.has(type) && args?.[0]?.type !== T.DB && !(type === T.GRANT && args?.[0]?.type === T.TABLE)) {
      args = [this.dbTerm, ...(args ?? [])];
    }
    if (args === t.args && optargs === t.optargs) return t;
    const out: TermMsg = { ...t };
    if (args) out.args = args;
    if (optargs) out.optargs = optargs;
    return out;
  }

  /** The query with its term and global optargs rewritten (the same object when nothing changes). */
  query(q: QueryMsg): QueryMsg {
    const query = q.query && this.term(q.query);
    let globals = q.global_optargs;
    if (globals?.length) {
      let changed = false;
      const next = globals.map((o) => {
        // `db` names the default database: always the scratch one.
        const val = o.key === 'db' ? (isDbTerm(o.val, this.db) ? o.val : this.dbTerm) : o.val && this.term(o.val);
        if (val === o.val) return o;
        changed = true;
        return { ...o, val };
      });
      if (changed) globals = next;
    }
    if (query === q.query && globals === q.global_optargs) return q;
    return { ...q, query, global_optargs: globals };
  }

  isSafe(q: QueryMsg): boolean {
    return this.query(q) === q;
  }

  /**
   * Is every frame the server would cut from `bytes` (after a standard handshake) either not a
   * Query or a safe one? Frames past a size the server refuses are never evaluated.
   */
  safeBytes(bytes: Buffer): boolean {
    const reader = new FrameReader(0xffffffff);
    for (const payload of reader.push(bytes)) {
      let q: QueryMsg;
      try {
        q = decodeQuery(payload);
      } catch {
        continue; // the server cannot run what it cannot decode
      }
      if (!this.isSafe(q)) return false;
    }
    return true;
  }
}

function isDbTerm(t: TermMsg | undefined, name: string): boolean {
  return t?.type === T.DB && t.args?.length === 1 && isNameDatum(t.args[0], name) && !t.optargs?.length;
}
