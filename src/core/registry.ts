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

export interface CheckFilters extends ImplementsFilters {
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

export function selectChecks<C extends Selectable>(checks: readonly C[], filters: CheckFilters, impl?: Implements): C[] {
  return selectWithReasons(checks, filters, impl).selected;
}

/** `--shard i/n`: the i-th of n deterministic shares (1-based), by position in registry order. */
export function shardChecks<T>(checks: readonly T[], index: number, count: number): T[] {
  return checks.filter((_, i) => i % count === index - 1);
}

/**
 * What a server implements, as globs: routes for CLOUD and BUILD (`/account/**`, with or without
 * the API prefix `/v4`; `GET /account/**` names a method too), methods, and WIRE terms
 * (`DB_*`). A check is kept by an include list when every route (term) it touches matches; it is
 * dropped by an exclude list when one does. A check that declares no `touches` cannot be shown to
 * stay inside what a server implements, so an include list drops it.
 */
export interface ImplementsFilters {
  includePath?: string[];
  excludePath?: string[];
  includeMethod?: string[];
  includeTerm?: string[];
  excludeTerm?: string[];
}

/** The names a selection report gives each filter, in the order they are applied. */
export const FILTER_NAMES = {
  protocol: '--protocol',
  level: '--level',
  only: '--only',
  skip: '--skip',
  includePath: '--include-path',
  excludePath: '--exclude-path',
  includeMethod: '--include-method',
  includeTerm: '--include-term',
  excludeTerm: '--exclude-term',
  implementsPaths: 'implements.paths',
  implementsMethods: 'implements.methods',
  implementsTerms: 'implements.terms',
} as const;
export type FilterName = keyof typeof FILTER_NAMES;

/** The API prefix of a protocol's routes, which a path pattern may carry or not. */
const API_PREFIX: Partial<Record<Protocol, RegExp>> = { cloud: /^\/v4(?:beta)?(?=\/|$)/ };

interface Route {
  method: string;
  path: string;
}

/** `GET /account/events/{eventId}` as method and path; a term (`term:DB_CREATE`) is no route. */
export function routeOf(touch: string): Route | undefined {
  const m = /^([A-Z]+) (\/\S*)$/.exec(touch.trim());
  return m ? { method: m[1], path: m[2] } : undefined;
}

function termOf(touch: string): string | undefined {
  return touch.startsWith('term:') ? touch.slice(5) : undefined;
}

/** A path glob (optionally `METHOD /glob`) for the checks of one protocol. */
function pathMatcher(patterns: readonly string[], protocol: Protocol): (r: Route) => boolean {
  const prefix = API_PREFIX[protocol];
  const compiled = patterns.map((raw) => {
    const m = /^([A-Za-z]+)\s+(\/.*)$/.exec(raw.trim());
    let glob = (m ? m[2] : raw.trim()) || '/';
    if (!glob.startsWith('/') && !glob.startsWith('*')) glob = `/${glob}`;
    if (prefix) glob = glob.replace(prefix, '') || '/';
    // `/account` names that route alone (under CLOUD's /v4 it is the parent of nearly every
    // route: a server serving only GET /account must be able to say so); `/account/` and
    // `/account/**` name it and what lies under it, as a directory.
    const bare = glob.replace(/\/+$/, '') || '/';
    const match = picomatch(glob.endsWith('/') && glob !== '/' ? [bare, `${bare}/**`] : [glob], { dot: true });
    const method = m?.[1].toUpperCase();
    return (r: Route) => (!method || method === r.method) && match(r.path.replace(prefix ?? /$^/, '') || '/');
  });
  return (r) => compiled.some((f) => f(r));
}

function termMatcher(patterns: readonly string[]): (term: string) => boolean {
  const match = picomatch(patterns.map((p) => p.replace(/^term:/i, '')), { nocase: true });
  return (t) => match(t);
}

/**
 * A predicate per implements-filter given, each false for a check it drops. Path and method
 * filters concern CLOUD and BUILD checks (a WIRE check sends no route); term filters WIRE checks.
 */
function implementsPredicates(f: ImplementsFilters, names: { path: FilterName; method: FilterName; term: FilterName; exPath?: FilterName; exTerm?: FilterName }) {
  const out: [FilterName, (c: Pick<Check, 'protocol' | 'touches'>) => boolean][] = [];
  const http = (c: Pick<Check, 'protocol'>) => c.protocol !== 'wire';
  const routes = (c: Pick<Check, 'touches'>) => (c.touches ?? []).map(routeOf).filter((r): r is Route => r !== undefined);
  const terms = (c: Pick<Check, 'touches'>) => (c.touches ?? []).map(termOf).filter((t): t is string => t !== undefined);
  const perProtocol = <T>(make: (p: Protocol) => T) => {
    const cache = new Map<Protocol, T>();
    return (p: Protocol) => cache.get(p) ?? (cache.set(p, make(p)), cache.get(p)!);
  };
  if (f.includePath?.length) {
    const m = perProtocol((p) => pathMatcher(f.includePath!, p));
    out.push([names.path, (c) => !http(c) || (c.touches !== undefined && routes(c).every(m(c.protocol)))]);
  }
  if (f.excludePath?.length && names.exPath) {
    const m = perProtocol((p) => pathMatcher(f.excludePath!, p));
    out.push([names.exPath, (c) => !http(c) || !routes(c).some(m(c.protocol))]);
  }
  if (f.includeMethod?.length) {
    const methods = f.includeMethod.map((x) => x.toUpperCase());
    out.push([names.method, (c) => !http(c) || (c.touches !== undefined && routes(c).every((r) => methods.includes(r.method)))]);
  }
  if (f.includeTerm?.length) {
    const m = termMatcher(f.includeTerm);
    out.push([names.term, (c) => c.protocol !== 'wire' || (c.touches !== undefined && terms(c).every(m))]);
  }
  if (f.excludeTerm?.length && names.exTerm) {
    const m = termMatcher(f.excludeTerm);
    out.push([names.exTerm, (c) => c.protocol !== 'wire' || !terms(c).some(m)]);
  }
  return out;
}

/** A target's `implements` in the config, as filters. */
export interface Implements {
  paths?: string[];
  methods?: string[];
  terms?: string[];
}

export interface Selection<C> {
  selected: C[];
  /** How many checks each filter left out (the first filter that left a check out counts it). */
  dropped: Partial<Record<FilterName, number>>;
}

type Selectable = Pick<Check, 'id' | 'section' | 'level' | 'protocol' | 'touches'>;

/**
 * The checks `filters` (and a target's `implements`) select, and how many each filter left out.
 * Checks of other protocols than `filters.protocol` are not counted.
 */
export function selectWithReasons<C extends Selectable>(checks: readonly C[], filters: CheckFilters, impl?: Implements): Selection<C> {
  const only = filters.only?.length ? matcher(filters.only) : undefined;
  const skip = filters.skip?.length ? matcher(filters.skip) : undefined;
  const levels: Level[] = filters.level === 'must' ? ['MUST'] : ['MUST', 'SHOULD'];
  const predicates: [FilterName, (c: C) => boolean][] = [
    ['level', (c) => levels.includes(c.level)],
    ...(only ? [['only', only] as [FilterName, (c: C) => boolean]] : []),
    ...(skip ? [['skip', (c: C) => !skip(c)] as [FilterName, (c: C) => boolean]] : []),
    ...implementsPredicates(filters, { path: 'includePath', method: 'includeMethod', term: 'includeTerm', exPath: 'excludePath', exTerm: 'excludeTerm' }),
    ...(impl ? implementsPredicates({ includePath: impl.paths, includeMethod: impl.methods, includeTerm: impl.terms }, { path: 'implementsPaths', method: 'implementsMethods', term: 'implementsTerms' }) : []),
  ];
  const selected: C[] = [];
  const dropped: Partial<Record<FilterName, number>> = {};
  for (const c of checks) {
    if (filters.protocol && c.protocol !== filters.protocol) continue;
    const failed = predicates.find(([, p]) => !p(c));
    if (failed) dropped[failed[0]] = (dropped[failed[0]] ?? 0) + 1;
    else selected.push(c);
  }
  // In the order the filters apply, whatever order the checks met them in.
  const ordered: Partial<Record<FilterName, number>> = {};
  for (const [name] of predicates) if (dropped[name]) ordered[name] = dropped[name];
  return { selected, dropped: ordered };
}

/** "12 by --include-path, 3 by --level" */
export function droppedText(dropped: Selection<unknown>['dropped']): string {
  return Object.entries(dropped)
    .map(([k, n]) => `${n} by ${FILTER_NAMES[k as FilterName]}`)
    .join(', ');
}

/**
 * What a fuzz campaign may send, from the same filters that select checks (the run's options and
 * a target's `implements`): `route(method, template)` for CLOUD and BUILD request routes (a
 * template as the checks' `touches` write it: `/account/users/{username}`; `<project>` and a
 * `?cmd=…` query are read as `{project}` and the bare route), `term(name)` for WIRE term types.
 * Undefined where no filter concerns it: everything may be sent.
 */
export interface CaseSelector {
  route?: (method: string, template: string) => boolean;
  term?: (name: string) => boolean;
}

export function caseSelector(f: ImplementsFilters, impl: Implements | undefined, protocol: Protocol): CaseSelector {
  const includePath = [f.includePath, impl?.paths].filter((x): x is string[] => !!x?.length);
  const methods = [f.includeMethod, impl?.methods].filter((x): x is string[] => !!x?.length).map((l) => l.map((m) => m.toUpperCase()));
  const includeTerm = [f.includeTerm, impl?.terms].filter((x): x is string[] => !!x?.length);
  const out: CaseSelector = {};
  if (protocol !== 'wire' && (includePath.length || methods.length || f.excludePath?.length)) {
    const includes = includePath.map((p) => pathMatcher(p, protocol));
    const exclude = f.excludePath?.length ? pathMatcher(f.excludePath, protocol) : undefined;
    out.route = (method, template) => {
      const r = { method: method.toUpperCase(), path: template.replace(/\?.*$/, '').replace(/<(\w+)>/g, '{$1}') };
      // Every include list must admit it (as for checks: each filter drops what it does not match).
      return includes.every((m) => m(r)) && methods.every((l) => l.includes(r.method)) && !exclude?.(r);
    };
  }
  if (protocol === 'wire' && (includeTerm.length || f.excludeTerm?.length)) {
    const includes = includeTerm.map(termMatcher);
    const exclude = f.excludeTerm?.length ? termMatcher(f.excludeTerm) : undefined;
    out.term = (name) => includes.every((m) => m(name)) && !exclude?.(name);
  }
  return out;
}
