// "Secondary indexes" and write hooks. The reference builds indexes at once (see indexes.ts), so
// INDEX_STATUS reports every index ready and INDEX_WAIT returns straight away; the variant builds
// them in the background and its INDEX_WAIT answers when the build is done.
import type { JsValue } from '../../../../src/clients/wire/codec.ts';
import { optBool, str } from '../args.ts';
import { logicError, NotYet, opFailed } from '../errors.ts';
import { defineTerms, type Call } from '../evaluate.ts';
import { building, VARIANT_INDEX_BUILD_MS, type TableData } from '../store.ts';
import { isFunc, type Func } from '../values.ts';
import { tableArg } from './tables.ts';

function table(c: Call): TableData {
  return c.env.store.table(tableArg(c, 0));
}

/**
 * {index, ready} objects for the named indexes (all of them when none is named). Whether an index
 * is ready as soon as INDEX_CREATE answers is not stated: the reference builds at once, the
 * variant in the background (VARIANT_INDEX_BUILD_MS), and INDEX_WAIT (`wait`) blocks until the
 * build is done: the query is answered then (NotYet), the connection's other queries meanwhile.
 */
function statuses(c: Call, wait = false): JsValue[] {
  const t = table(c);
  const wanted = c.argc > 1 ? Array.from({ length: c.argc - 1 }, (_, i) => str(c, i + 1)) : [...t.indexes.keys()];
  if (wait && !c.env.faults.has('index-status-not-ready')) {
    const pending = wanted.map((name) => t.indexes.get(name)).filter((def) => def && building(def)).map((def) => def!.readyAt!);
    if (pending.length) throw new NotYet(Math.max(...pending));
  }
  return wanted.map((name): JsValue => {
    const def = t.indexes.get(name);
    if (!def) throw opFailed(`Index \`${name}\` was not found on table \`${t.ref.db}.${t.ref.name}\`.`);
    if (c.env.faults.has('index-status-not-ready')) return { index: name, ready: false, progress: 0 };
    if (building(def)) return { progress: 0.5, ready: false, index: name };
    return { index: name, ready: true, function: '<function>', multi: def.multi, geo: def.geo, outdated: false };
  });
}

/** The index function of INDEX_CREATE; with none, the field of the same name. */
function indexFunc(c: Call, name: string): Func {
  if (c.argc === 3) {
    const fn = c.arg(2);
    if (!isFunc(fn)) throw logicError('INDEX_CREATE expects a function.').at({ pos: 2 });
    return fn;
  }
  // FUNC([1], GET_FIELD(VAR(1), name)) as a term, so that it is applied like any index function.
  const body = { type: 31, args: [{ type: 10, args: [{ type: 1, datum: { type: 3, r_num: 1 } }] }, { type: 1, datum: { type: 4, r_str: name } }] };
  return { kind: 'func', params: [1], body, scope: new Map() };
}

/** The primary key is not a secondary index: RethinkDB refuses the name (sindex/api.yaml). */
function pkConflict(name: string) {
  return logicError(`Index name conflict: \`${name}\` is the name of the primary key.`);
}

defineTerms({
  INDEX_CREATE: {
    arity: [2, 3],
    optargs: ['multi', 'geo'],
    run: (c) => {
      const t = table(c);
      const name = str(c, 1);
      if (name === t.primaryKey) throw pkConflict(name);
      if (t.indexes.has(name)) throw opFailed(`Index \`${name}\` already exists on table \`${t.ref.db}.${t.ref.name}\`.`);
      const readyAt = c.env.variant ? Date.now() + VARIANT_INDEX_BUILD_MS : undefined;
      t.indexes.set(name, { fn: indexFunc(c, name), multi: optBool(c, 'multi') ?? false, geo: optBool(c, 'geo') ?? false, ...(readyAt ? { readyAt } : {}) });
      return { created: 1 };
    },
  },
  INDEX_DROP: {
    arity: [2, 2],
    run: (c) => {
      const t = table(c);
      const name = str(c, 1);
      if (!t.indexes.delete(name)) throw opFailed(`Index \`${name}\` does not exist on table \`${t.ref.db}.${t.ref.name}\`.`);
      return { dropped: 1 };
    },
  },
  INDEX_LIST: { arity: [1, 1], run: (c) => [...table(c).indexes.keys()].sort() },
  INDEX_STATUS: { arity: [1, Infinity], run: (c) => statuses(c) },
  INDEX_WAIT: { arity: [1, Infinity], run: (c) => statuses(c, true) },
  INDEX_RENAME: {
    arity: [3, 3],
    optargs: ['overwrite'],
    run: (c) => {
      const t = table(c);
      const [from, to] = [str(c, 1), str(c, 2)];
      for (const name of [from, to]) if (name === t.primaryKey) throw pkConflict(name);
      const def = t.indexes.get(from);
      // Renaming an index to its own name changes nothing (RethinkDB answers {renamed: 0}).
      if (def && from === to) return { renamed: 0 };
      if (!def) throw opFailed(`Index \`${from}\` does not exist on table \`${t.ref.db}.${t.ref.name}\`.`);
      const overwrite = (optBool(c, 'overwrite') ?? false) && !c.env.faults.has('index-rename-overwrite-ignored');
      if (t.indexes.has(to) && !overwrite) throw opFailed(`Index \`${to}\` already exists on table \`${t.ref.db}.${t.ref.name}\`.`);
      if (from === to) return { renamed: 0 };
      if (!c.env.faults.has('index-rename-copies')) t.indexes.delete(from);
      t.indexes.set(to, def);
      return { renamed: 1 };
    },
  },
  SET_WRITE_HOOK: {
    arity: [2, 2],
    run: (c) => {
      const t = table(c);
      const fn = c.arg(1);
      if (fn !== null && !isFunc(fn)) throw logicError('SET_WRITE_HOOK expects a function or NULL.').at({ pos: 1 });
      const existed = t.writeHook !== null;
      t.writeHook = fn;
      return { [fn === null ? 'deleted' : existed ? 'replaced' : 'created']: 1 };
    },
  },
  GET_WRITE_HOOK: {
    arity: [1, 1],
    run: (c) => (table(c).writeHook ? { function: '<function>', query: 'setWriteHook(<function>)' } : null),
  },
});
