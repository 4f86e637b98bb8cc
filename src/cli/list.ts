// `conformance list`: the registry as a table or as JSON (the citation checker reads the JSON).
import { metaOf, PROTOCOLS, type Protocol } from '../core/check.ts';
import { UsageError } from '../core/errors.ts';
import { loadChecks } from '../core/registry.ts';
import { faultCatalogue } from '../adapters/index.ts';
import type { Io } from './console.ts';

export async function listCommand(opts: { json?: boolean; protocol?: string; faults?: boolean }, io: Io): Promise<void> {
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
  const checks = (await loadChecks(opts.protocol ? [opts.protocol as Protocol] : undefined)).map(metaOf);
  if (opts.json) {
    io.out(JSON.stringify(checks, null, 2));
    return;
  }
  for (const c of checks) io.out(`${c.id.padEnd(58)} ${c.level.padEnd(6)} ${c.section} (${c.spec.file}:${c.spec.line})`);
  io.out(`${checks.length} checks`);
}
