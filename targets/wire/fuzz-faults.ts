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
  if (!t) return false;
  return test(t) || (t.args ?? []).some((a) => holdsTerm(a, test)) || (t.optargs ?? []).some((p) => holdsTerm(p.val, test));
}

export const isLimitZero = (t: TermMsg): boolean =>
  t.type === TermType.LIMIT && (t.args ?? []).some((a) => a.type === TermType.DATUM && a.datum?.type === DatumType.R_NUM && a.datum.r_num === 0);

export const isPolygonSub = (t: TermMsg): boolean => t.type === TermType.POLYGON_SUB;
