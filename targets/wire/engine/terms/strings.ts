// "Strings" terms.
import type { JsValue } from '../../../../src/clients/wire/codec.ts';
import { int, num, optBool, str } from '../args.ts';
import { logicError } from '../errors.ts';
import { defineTerms } from '../evaluate.ts';
import { typeName } from '../values.ts';

/** SPLIT: with no separator (or NULL) on runs of whitespace, dropping empty pieces. */
function split(s: string, sep: string | null, limit: number | undefined, faults: ReadonlySet<string>, variant = false): string[] {
  if (limit === undefined || faults.has('split-ignores-limit')) limit = Infinity;
  if (sep === null && faults.has('split-default-single-space')) sep = ' ';
  const out: string[] = [];
  let rest = s;
  if (sep === null) {
    rest = rest.replace(/^\s+/, '');
    while (rest.length) {
      if (out.length >= limit) {
        out.push(rest);
        return out;
      }
      const m = /\s+/.exec(rest);
      if (!m) break;
      out.push(rest.slice(0, m.index));
      rest = rest.slice(m.index + m[0].length);
    }
    if (rest.length) out.push(rest);
    return out;
  }
  if (sep === '') return [...s].slice(0, limit === Infinity ? undefined : limit).concat(limit < s.length ? [[...s].slice(limit).join('')] : []);
  // Line 148 states no rule for empty pieces between two separators: the reference keeps them (as
  // RethinkDB does), the variant drops them.
  const parts = variant ? s.split(sep).filter((p) => p !== '') : s.split(sep);
  if (parts.length - 1 <= limit) return parts;
  return [...parts.slice(0, limit), parts.slice(limit).join(sep)];
}

defineTerms({
  MATCH: {
    arity: [2, 2],
    run: (c) => {
      const s = str(c, 0);
      let re: RegExp;
      try {
        // RE2 syntax (RethinkDB's engine): leading inline flags such as `(?i)` become JS flags.
        const inline = /^\(\?([ims]+)\)/.exec(str(c, 1));
        re = new RegExp(inline ? str(c, 1).slice(inline[0].length) : str(c, 1), `u${inline ? [...new Set(inline[1])].join('') : ''}`);
      } catch (err) {
        throw logicError(`Error in regexp \`${str(c, 1)}\`: ${(err as Error).message}.`).at({ pos: 1 });
      }
      const m = re.exec(s);
      if (!m && c.env.faults.has('match-no-match-error')) throw logicError(`No match for \`${str(c, 1)}\` in \`${s}\`.`);
      if (!m) return null;
      const groups = m.slice(1).map((g) => {
        if (g === undefined) return null;
        const start = s.indexOf(g, m.index);
        return { str: g, start, end: start + g.length };
      });
      return { str: m[0], start: m.index, end: m.index + m[0].length, groups } as JsValue;
    },
  },
  UPCASE: { arity: [1, 1], run: (c) => str(c, 0).toUpperCase() },
  DOWNCASE: { arity: [1, 1], run: (c) => str(c, 0).toLowerCase() },
  SPLIT: {
    arity: [1, 3],
    run: (c) => {
      const s = str(c, 0);
      let sep: string | null = null;
      if (c.argc >= 2) {
        const v = c.datum(1);
        if (v !== null && typeof v !== 'string') throw logicError(`Expected type STRING or NULL but found ${typeName(v)}.`).at({ pos: 1 });
        sep = v;
      }
      return split(s, sep, c.argc === 3 ? int(c, 2) : undefined, c.env.faults, c.env.variant === true);
    },
  },
  RANDOM: {
    arity: [0, 2],
    optargs: ['float'],
    run: (c) => {
      const float = (optBool(c, 'float') ?? false) && !c.env.faults.has('random-float-ignored');
      // An integer needs a bound (RethinkDB, random.yaml `r.random({float: false})`).
      if (c.argc === 0 && optBool(c, 'float') === false) throw logicError('Generating a random integer requires one or two bounds.');
      const [lo, hi] = c.argc === 0 ? [0, 1] : c.argc === 1 ? [0, num(c, 0)] : [num(c, 0), num(c, 1)];
      if (float || c.argc === 0) return lo + Math.random() * (hi - lo);
      if (!Number.isInteger(lo) || !Number.isInteger(hi)) throw logicError('RANDOM bounds must be integers unless float is set.');
      // RethinkDB (random.yaml): an empty integer range is an error, not a value.
      if (lo >= hi) throw logicError(`Lower bound (${lo}) is not less than upper bound (${hi}).`);
      return lo + Math.floor(Math.random() * (hi - lo));
    },
  },
});
