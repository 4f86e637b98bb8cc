// What the fuzz faults of wire-ref (WIRE_FUZZ_FAULTS in faults.ts) look for in a query; kept out
// of server.ts so that the server carries only one-line hooks.
import type { TermMsg } from '../../src/clients/wire/codec.ts';
import { DatumType, TermType } from '../../src/clients/wire/schema.ts';

/** Levels of nesting: a term without sub-terms is 1. */
export function termDepth(t: TermMsg | undefined): number {
  if (!t) return 0;
  let deepest = 0;
  for (const a of t.args ?? []) deepest = Math.max(deepest, termDepth(a));
  for (const p of t.optargs ?? []) deepest = Math.max(deepest, termDepth(p.val));
  return 1 + deepest;
}

/** True when some term of the tree satisfies `test`. */
export function holdsTerm(t: TermMsg | undefined, test: (t: TermMsg) => boolean): boolean {
  return firstTerm(t, test) !== undefined;
}

/** The first term of the tree (outermost first, arguments before options) that passes `test`. */
export function firstTerm(t: TermMsg | undefined, test: (t: TermMsg) => boolean): TermMsg | undefined {
  if (!t) return undefined;
  if (test(t)) return t;
  for (const a of t.args ?? []) {
    const hit = firstTerm(a, test);
    if (hit) return hit;
  }
  for (const p of t.optargs ?? []) {
    const hit = firstTerm(p.val, test);
    if (hit) return hit;
  }
  return undefined;
}

export const isLimitZero = (t: TermMsg): boolean =>
  t.type === TermType.LIMIT && (t.args ?? []).some((a) => a.type === TermType.DATUM && a.datum?.type === DatumType.R_NUM && a.datum.r_num === 0);

export const isPolygonSub = (t: TermMsg): boolean => t.type === TermType.POLYGON_SUB;
