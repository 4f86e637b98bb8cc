// The registry: every check of every suite, found through each suite's index (an explicit
// list of its section files), loaded per protocol so that an unselected suite costs nothing.
import picomatch from 'picomatch';
import type { Check, Level, Protocol } from './check.ts';
import { PROTOCOLS } from './check.ts';

const suites: Record<Protocol, () => Promise<{ checks: Check[] }>> = {
  wire: () => import('../../suites/wire/index.ts') as Promise<{ checks: Check[] }>,
  cloud: () => import('../../suites/cloud/index.ts') as Promise<{ checks: Check[] }>,
  build: () => import('../../suites/build/index.ts') as Promise<{ checks: Check[] }>,
};

export async function loadChecks(protocols: readonly Protocol[] = PROTOCOLS): Promise<Check[]> {
  const loaded = await Promise.all(protocols.map((p) => suites[p]()));
  const all = loaded.flatMap((m) => m.checks);
  validateRegistry(all);
  return all;
}

/** Registry invariants; a broken suite is a bug of ours, so this throws plainly. */
export function validateRegistry(checks: readonly Check[]): void {
  const seen = new Set<string>();
  for (const c of checks) {
    if (seen.has(c.id)) throw new Error(`duplicate check id ${c.id}`);
    seen.add(c.id);
    if (!c.id.startsWith(`${c.protocol}.`)) throw new Error(`check id ${c.id} does not start with its protocol '${c.protocol}.'`);
  }
  const byId = new Map(checks.map((c) => [c.id, c]));
  for (const c of checks) {
    for (const owner of c.reliesOn ?? []) if (!byId.has(owner)) throw new Error(`check ${c.id} relies on ${owner}, which is not a check`);
  }
  // reliesOn must not loop: the runner runs owners first.
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (id: string, path: string[]): void => {
    if (state.get(id) === 'done') return;
    if (state.get(id) === 'visiting') throw new Error(`reliesOn forms a cycle: ${[...path, id].join(' -> ')}`);
    state.set(id, 'visiting');
    for (const owner of byId.get(id)?.reliesOn ?? []) visit(owner, [...path, id]);
    state.set(id, 'done');
  };
  for (const c of checks) visit(c.id, []);
}

export interface CheckFilters {
  /** Id globs or section names (case-insensitive, a prefix is enough); a check is kept when one matches. */
  only?: string[];
  /** Id globs or section names (case-insensitive, a prefix is enough); a check is dropped when one matches. */
  skip?: string[];
  /** `must` keeps MUST checks only; `should` keeps both (SHOULD and above). */
  level?: 'must' | 'should';
  protocol?: Protocol;
}

/** `--only Handshake` names the section "Handshake (protobuf protocol)": a prefix of a section is enough. */
function matcher(patterns: string[]): (c: Pick<Check, 'id' | 'section'>) => boolean {
  const globs = patterns.map((p) => picomatch(p, { nocase: true }));
  const sections = patterns.map((p) => p.toLowerCase());
  return (c) => sections.some((p) => c.section.toLowerCase().startsWith(p)) || globs.some((g) => g(c.id));
}

export function selectChecks<C extends Pick<Check, 'id' | 'section' | 'level' | 'protocol'>>(checks: readonly C[], filters: CheckFilters): C[] {
  const only = filters.only?.length ? matcher(filters.only) : undefined;
  const skip = filters.skip?.length ? matcher(filters.skip) : undefined;
  const levels: Level[] = filters.level === 'must' ? ['MUST'] : ['MUST', 'SHOULD'];
  return checks.filter(
    (c) =>
      (!filters.protocol || c.protocol === filters.protocol) &&
      levels.includes(c.level) &&
      (!only || only(c)) &&
      !(skip && skip(c)),
  );
}

/** `--shard i/n`: the i-th of n deterministic shares (1-based), by position in registry order. */
export function shardChecks<T>(checks: readonly T[], index: number, count: number): T[] {
  return checks.filter((_, i) => i % count === index - 1);
}
