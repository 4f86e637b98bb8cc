// "Objects" terms. MERGE is right-preferential and merges nested objects; LITERAL makes it
// replace a value instead (or remove the field, for an empty literal).
import type { JsValue } from '../../../../src/clients/wire/codec.ts';
import { isObject, iterate, obj, readAll, seq, seqAt, streamFrom, str, type Obj } from '../args.ts';
import { isAbsent, logicError, nonExistence } from '../errors.ts';
import { defineTerms, resolve, type Call } from '../evaluate.ts';
import { isFunc, isStream, printDatum, typeName, type Value } from '../values.ts';

const ANY = Infinity;

export function getField(v: JsValue, field: string): JsValue {
  if (!isObject(v)) throw (v === null ? nonExistence : logicError)(`Cannot perform get_field on a non-object non-sequence \`${typeName(v)}\`.`);
  if (!Object.hasOwn(v, field)) throw nonExistence(`No attribute \`${field}\` in object:\n${printDatum(v)}`);
  return v[field];
}

/** A Pathspec as a tree: {a: true, b: {c: true}}. */
type PathTree = { [k: string]: true | PathTree };

function pathTree(specs: JsValue[]): PathTree {
  const tree: PathTree = {};
  const add = (spec: JsValue) => {
    if (typeof spec === 'string') tree[spec] = true;
    else if (Array.isArray(spec)) spec.forEach(add);
    else if (isObject(spec)) {
      for (const [k, v] of Object.entries(spec)) tree[k] = v === true ? true : pathTree([v]);
    } else throw logicError(`Invalid path argument \`${JSON.stringify(spec)}\`.`);
  };
  specs.forEach(add);
  return tree;
}

function hasPaths(o: JsValue, tree: PathTree): boolean {
  if (!isObject(o)) return false;
  return Object.entries(tree).every(([k, sub]) => Object.hasOwn(o, k) && o[k] !== null && (sub === true || hasPaths(o[k], sub)));
}

function pluck(o: Obj, tree: PathTree): Obj {
  const out: Obj = {};
  for (const [k, sub] of Object.entries(tree)) {
    if (!Object.hasOwn(o, k)) continue;
    if (sub === true) out[k] = o[k];
    else if (isObject(o[k])) out[k] = pluck(o[k], sub);
  }
  return out;
}

function without(o: Obj, tree: PathTree): Obj {
  const out: Obj = { ...o };
  for (const [k, sub] of Object.entries(tree)) {
    if (sub === true) delete out[k];
    else if (isObject(out[k])) out[k] = without(out[k] as Obj, sub);
  }
  return out;
}

/** RethinkDB's message for a LITERAL outside MERGE's objects, or inside another LITERAL. */
export const STRAY_LITERAL = 'Stray literal keyword found: literal is only legal inside of the object passed to merge or update and cannot nest inside other literals.';

export function holdsLiteral(v: JsValue): boolean {
  if (Array.isArray(v)) return v.some(holdsLiteral);
  return isObject(v) && (isLiteral(v) || Object.values(v as Obj).some((x) => holdsLiteral(x)));
}

export function isLiteral(v: JsValue): v is Obj {
  return isObject(v) && v.$reql_type$ === 'LITERAL';
}

/** Right-preferential deep merge; a LITERAL on the right replaces (or, empty, removes). */
export function merge(left: JsValue, right: JsValue, c: Call): JsValue {
  if (isLiteral(right) && !c.env.faults.has('literal-ignored')) return Object.hasOwn(right, 'value') ? right.value : undefined as never;
  // Pseudotypes (TIME, GEOMETRY...) are values, replaced whole rather than merged field by field.
  if (!isObject(left) || !isObject(right) || '$reql_type$' in left || '$reql_type$' in right) return right;
  const out: Obj = { ...left };
  for (const [k, v] of Object.entries(right)) {
    if (c.env.faults.has('merge-left-preferential') && Object.hasOwn(left, k)) continue;
    const literal = isLiteral(v) && !c.env.faults.has('literal-ignored');
    if (literal && !Object.hasOwn(v, 'value')) delete out[k];
    else if (literal) out[k] = v.value;
    else out[k] = Object.hasOwn(left, k) ? merge(left[k], isLiteral(v) ? (v.value ?? null) : v, c) : stripLiterals(v);
  }
  return out;
}

function stripLiterals(v: JsValue): JsValue {
  if (isLiteral(v)) return v.value ?? null;
  if (isObject(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, stripLiterals(x)]));
  return v;
}

/** Applies `f` to an OBJECT, or to each item of a sequence (the result is then a sequence). */
function objectOrSequence(c: Call, f: (o: JsValue) => JsValue, skipMissing = false): Value {
  const v = resolve(c.arg(0), c.env);
  const sequence = isStream(v) || Array.isArray(v);
  if (sequence && c.name === 'GET_FIELD' && c.env.faults.has('get-field-sequence-refused')) throw logicError('GET_FIELD expects an OBJECT.').at({ pos: 0 });
  if (sequence && ['PLUCK', 'WITHOUT'].includes(c.name) && c.env.faults.has('pluck-sequence-first-only')) {
    const item = seqAt(c, 0, v).items.next();
    return item.done ? null : f(item.value);
  }
  if (sequence) {
    const s = seqAt(c, 0, v);
    function* gen() {
      for (const x of iterate(s.items)) {
        // PLUCK and WITHOUT reach into objects, not into nested sequences (RethinkDB, transformation.yaml).
        if (Array.isArray(x) && ['PLUCK', 'WITHOUT'].includes(c.name)) throw logicError(`Cannot perform ${c.name.toLowerCase()} on a sequence of sequences.`);
        try {
          yield f(x);
        } catch (err) {
          if (!(skipMissing && isAbsent(err))) throw err;
        }
      }
    }
    return Array.isArray(v) ? [...gen()] : streamFrom(s, gen());
  }
  return f(c.datumOf(v));
}

function restDatums(c: Call): JsValue[] {
  return Array.from({ length: c.argc - 1 }, (_, i) => c.datum(i + 1));
}

defineTerms({
  GET_FIELD: { arity: [2, 2], run: (c) => { const f = str(c, 1); return objectOrSequence(c, (o) => getField(o, f), true); } },
  // KEYS and VALUES are in no stated order: the reference follows the object, the variant reverses it.
  KEYS: { arity: [1, 1], run: (c) => inOrder(c, Object.keys(obj(c, 0))) },
  VALUES: { arity: [1, 1], run: (c) => inOrder(c, Object.values(obj(c, 0))) },
  OBJECT: {
    arity: [0, ANY],
    run: (c) => {
      if (c.argc % 2) throw logicError('OBJECT expects an even number of arguments.');
      const out: Obj = {};
      for (let i = 0; i < c.argc; i += 2) {
        const key = str(c, i);
        const value = c.datum(i + 1);
        // RethinkDB (datum/object.yaml): a key given twice is an error.
        if (Object.hasOwn(out, key)) throw logicError(`Duplicate key "${key}" in object.  (got ${JSON.stringify(out[key])} and ${JSON.stringify(value)} as values)`);
        out[key] = value;
      }
      return out;
    },
  },
  HAS_FIELDS: {
    arity: [1, ANY],
    run: (c) => {
      const tree = pathTree(restDatums(c));
      // On a sequence (beyond line 144's OBJECT) RethinkDB keeps the items that have the fields
      // (transform/object.yaml), as WITH_FIELDS does, rather than answering a BOOL per item.
      const v = resolve(c.arg(0), c.env);
      if (isStream(v) || Array.isArray(v)) {
        const s = seqAt(c, 0, v);
        const kept = readAll(s).filter((o) => isObject(o) && hasPaths(o, tree));
        return s.array ? kept : streamFrom(s, kept);
      }
      return objectOrSequence(c, (o) => hasPaths(o, tree));
    },
  },
  WITH_FIELDS: {
    arity: [1, ANY],
    run: (c) => {
      const tree = pathTree(restDatums(c));
      const s = seq(c, 0);
      function* gen() {
        for (const x of iterate(s.items)) if (hasPaths(x, tree)) yield pluck(x as Obj, tree);
      }
      return streamFrom(s, gen(), false);
    },
  },
  PLUCK: {
    arity: [1, ANY],
    run: (c) => {
      const tree = pathTree(restDatums(c));
      return objectOrSequence(c, (o) => (isObject(o) ? pluck(o, tree) : o));
    },
  },
  WITHOUT: {
    arity: [1, ANY],
    run: (c) => {
      const tree = pathTree(restDatums(c));
      return objectOrSequence(c, (o) => (isObject(o) ? without(o, tree) : o));
    },
  },
  MERGE: {
    arity: [1, ANY],
    // `OBJECT...` with no object at all: the variant answers the empty object.
    variantArity: [0, ANY],
    run: (c) => {
      if (c.argc === 0) return {};
      const rest = Array.from({ length: c.argc - 1 }, (_, i) => c.arg(i + 1));
      return objectOrSequence(c, (o) =>
        rest.reduce<JsValue>((acc, r) => {
          const right = isFunc(r) ? c.applyDatum(r, [o]) : c.datumOf(r);
          // A LITERAL is legal only inside the object merged (RethinkDB, transform/object.yaml).
          if (isLiteral(right) && !c.env.faults.has('literal-ignored')) throw logicError(STRAY_LITERAL);
          return merge(acc, right, c);
        }, o),
      );
    },
  },
  LITERAL: {
    arity: [0, 1],
    run: (c): JsValue => {
      if (!c.argc) return { $reql_type$: 'LITERAL' };
      const value = c.datum(0);
      if (holdsLiteral(value) && !c.env.faults.has('literal-ignored')) throw logicError(STRAY_LITERAL);
      return { $reql_type$: 'LITERAL', value };
    },
  },
});

function inOrder<T>(c: Call, xs: T[]): T[] {
  return c.env.variant ? xs.reverse() : xs;
}
