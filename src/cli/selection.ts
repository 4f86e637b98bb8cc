// Selection by what a server implements (`--include-path`, `--include-method`, `--include-term`,
// their exclude forms, and a target's `implements` in the config), shared by `run` and `list` so
// that a listing previews exactly what a run runs.
import type { Command } from 'commander';
import type { Check, Protocol } from '../core/check.ts';
import { FILTER_NAMES, selectWithReasons, shardChecks, type CheckFilters, type FilterName, type Implements } from '../core/registry.ts';
import type { TargetConfig } from '../config/types.ts';
import type { TargetSelection } from '../reports/model.ts';

export interface SelectionOptions {
  only?: string[];
  skip?: string[];
  level?: 'must' | 'should';
  includePath?: string[];
  excludePath?: string[];
  includeMethod?: string[];
  includeTerm?: string[];
  excludeTerm?: string[];
}

const GROUP = 'Selection by what the server implements (every route, or term, a check touches must match):';

/** The options; a comma-separated value is split, so `--include-method GET,PUT` works too. */
export function addImplementsOptions(cmd: Command): Command {
  const list = (v: string, prev: string[] | undefined) => [...(prev ?? []), ...v.split(',').map((x) => x.trim()).filter(Boolean)];
  cmd
    .option('--include-path <glob...>', "CLOUD, BUILD: run only checks whose every route matches ('/account/**', with or without /v4; 'GET /account/**')", list)
    .option('--exclude-path <glob...>', 'CLOUD, BUILD: leave out checks that touch a route matching one', list)
    .option('--include-method <method...>', 'CLOUD, BUILD: run only checks whose every request uses one of these methods', list)
    .option('--include-term <glob...>', "WIRE: run only checks whose every term matches ('DB_*', 'TABLE_CREATE')", list)
    .option('--exclude-term <glob...>', 'WIRE: leave out checks that send a term matching one', list);
  for (const name of ['include-path', 'exclude-path', 'include-method', 'include-term', 'exclude-term']) {
    cmd.options.find((o) => o.long === `--${name}`)?.helpGroup(GROUP);
  }
  return cmd;
}

export function filtersOf(o: SelectionOptions): CheckFilters {
  const f: CheckFilters = { only: o.only, skip: o.skip, level: o.level };
  for (const k of ['includePath', 'excludePath', 'includeMethod', 'includeTerm', 'excludeTerm'] as const) if (o[k]?.length) f[k] = o[k];
  return f;
}

/** Only the filters given, for the report (and merge's comparison of shards). */
export function reportFilters(f: CheckFilters): Record<string, unknown> {
  return Object.fromEntries(Object.entries(f).filter(([k, v]) => k !== 'protocol' && v !== undefined));
}

const SHOWN: Record<FilterName, string> = { ...FILTER_NAMES, implementsPaths: 'implements.paths (config)', implementsMethods: 'implements.methods (config)', implementsTerms: 'implements.terms (config)' };

/** A target's checks: the run's filters, its shard, then the target's own `implements`. */
export function selectForTarget(
  all: readonly Check[],
  target: TargetConfig,
  filters: CheckFilters,
  shard?: { index: number; count: number; of: readonly Check[] },
): { checks: Check[]; selection: TargetSelection } {
  const protocol: Protocol = target.protocol;
  const impl = target.implements as Implements | undefined;
  const s = selectWithReasons(all, { ...filters, protocol }, impl);
  const notSelected: Record<string, number> = {};
  for (const [k, n] of Object.entries(s.dropped)) notSelected[SHOWN[k as FilterName]] = n;
  let checks = s.selected;
  if (shard) {
    const share = new Set(shardChecks(shard.of, shard.index, shard.count));
    checks = checks.filter((c) => share.has(c));
    const out = s.selected.length - checks.length;
    if (out) notSelected['--shard'] = out;
  }
  const registered = all.filter((c) => c.protocol === protocol).length;
  return { checks, selection: { registered, selected: checks.length, notSelected } };
}
