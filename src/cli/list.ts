// `conformance list`: the registry as a table or as JSON (the citation checker reads the JSON).
import { metaOf, PROTOCOLS, type Protocol } from '../core/check.ts';
import { UsageError } from '../core/errors.ts';
import { droppedText, loadChecks, selectWithReasons } from '../core/registry.ts';
import { faultCatalogue } from '../adapters/index.ts';
import type { Io } from './console.ts';
import { loadConfig } from '../config/load.ts';
import { selectionText } from '../reports/model.ts';
import { filtersOf, selectForTarget, type SelectionOptions } from './selection.ts';

export interface ListOptions extends SelectionOptions {
  target?: string;
  config?: string;
  json?: boolean;
  protocol?: string;
  faults?: boolean;
  only?: string[];
  skip?: string[];
  level?: 'must' | 'should';
}

/** Lists the checks a run with the same selection options would run (so a selection can be previewed). */
export async function listCommand(opts: ListOptions, io: Io): Promise<void> {
  if (opts.protocol && !PROTOCOLS.includes(opts.protocol as Protocol)) {
    throw new UsageError(`unknown protocol '${opts.protocol}' (known: ${PROTOCOLS.join(', ')})`);
  }
  if (opts.faults) {
    const protocols = opts.protocol ? [opts.protocol] : PROTOCOLS;
    const faults = [];
    for (const p of protocols) {
      for (const [name, description] of Object.entries(await faultCatalogue(p))) faults.push({ target: `${p}-ref`, name, description });
    }
    if (opts.json) io.out(JSON.stringify(faults, null, 2));
    else for (const f of faults) io.out(`${f.target.padEnd(10)} ${f.name.padEnd(36)} ${f.description}`);
    return;
  }
  // With --target, the target's protocol and its `implements`: what a run of it would run.
  const target = opts.target ? (await loadConfig(opts.config, process.cwd(), { only: [opts.target] })).config.targets[opts.target] : undefined;
  if (target && opts.protocol && opts.protocol !== target.protocol) throw new UsageError(`--target ${opts.target} is a ${target.protocol} target, not ${opts.protocol}`);
  const protocol = (target?.protocol ?? opts.protocol) as Protocol | undefined;
  const all = await loadChecks(protocol ? [protocol] : undefined);
  const filters = filtersOf(opts);
  const chosen = target ? selectForTarget(all, target, filters) : undefined;
  const plain = chosen ? undefined : selectWithReasons(all, filters);
  const checks = (chosen?.checks ?? plain!.selected).map(metaOf);
  if (opts.json) {
    io.out(JSON.stringify(checks, null, 2));
    return;
  }
  // Grouped by protocol and document section, in registry order.
  const groups = new Map<string, typeof checks>();
  for (const c of checks) {
    const key = `${c.protocol} · ${c.section}`;
    groups.set(key, [...(groups.get(key) ?? []), c]);
  }
  for (const [group, members] of groups) {
    io.out(`${group} (${members.length})`);
    for (const c of members) io.out(`  ${c.id.padEnd(60)} ${c.level.padEnd(6)} ${c.spec.file}:${c.spec.line}`);
  }
  if (chosen) io.out(`${opts.target}: ${selectionText(chosen.selection)}`);
  else {
    const why = droppedText(plain!.dropped);
    io.out(`${checks.length} checks${checks.length < all.length ? ` of ${all.length} selected` : ''}${why ? `; not selected: ${why}` : ''}`);
  }
}
