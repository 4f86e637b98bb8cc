// The servers of the proof matrix: a protocol's reference started with options (faults, variant,
// a trivial mode, a half-built route or term list, latency), and the checks run against it as an
// external target with the credentials and fixtures the reference seeded, as a user's server is.
import { prepareTarget } from '../../src/adapters/index.ts';
import type { Check, Protocol } from '../../src/core/check.ts';
import type { CheckResult } from '../../src/core/result.ts';
import { runChecks, type RunOptions } from '../../src/core/runner.ts';
import type { TargetConfig } from '../../src/config/types.ts';
import { routeKey, type ServerModeOptions } from '../../targets/server-modes.ts';
import { TEST_TIMEOUTS } from './run-check.ts';

export interface ServerSpec {
  variant?: boolean;
  faults?: string[];
  /** do-nothing or accept-all (every protocol). */
  mode?: 'do-nothing' | 'accept-all';
  /** CLOUD and BUILD: the routes served (`GET /account`); WIRE: the terms served (TermType names). */
  only?: readonly string[];
  latencyMs?: number;
  /** Gated tags the target allows (default: all; a user's second run leaves out `irreversible`). */
  allow?: ('destructive' | 'load' | 'irreversible')[];
  /** CLOUD and BUILD: told the route each request reached; WIRE: each term of each query. */
  onRoute?(route: string): void;
}

export interface StartedServer {
  config: TargetConfig;
  close(): Promise<void>;
}

export async function startServer(protocol: Protocol, spec: ServerSpec = {}): Promise<StartedServer> {
  const modes: ServerModeOptions = { mode: spec.mode, onlyRoutes: spec.only, latencyMs: spec.latencyMs, onRoute: spec.onRoute };
  if (protocol === 'wire') {
    const { startWireReference } = await import('../../targets/wire/server.ts');
    const restrictedAuthKey = 'wire-ref-read-only';
    const ref = await startWireReference({ authKey: '', restrictedAuthKey, variant: spec.variant, faults: spec.faults, mode: spec.mode, onlyTerms: spec.only, latencyMs: spec.latencyMs, onTerm: spec.onRoute });
    return { config: { protocol: 'wire', host: ref.host, port: ref.port, authKey: '', restrictedAuthKey }, close: ref.close };
  }
  if (protocol === 'cloud') {
    const { startCloudReference } = await import('../../targets/cloud/server.ts');
    const ref = await startCloudReference({ variant: spec.variant, faults: spec.faults, modes });
    return { config: { protocol: 'cloud', baseUrl: ref.baseUrl, tokens: ref.tokens, fixtures: ref.fixtures, allow: spec.allow ?? ['destructive', 'load', 'irreversible'] }, close: ref.close };
  }
  const { startBuildReference } = await import('../../targets/build/server.ts');
  const ref = await startBuildReference({ variant: spec.variant, faults: spec.faults, modes });
  return { config: { protocol: 'build', baseUrl: ref.baseUrl, users: ref.users, token: ref.token, fixtures: ref.fixtures, allow: spec.allow ?? ['destructive', 'load', 'irreversible'] }, close: ref.close };
}

/**
 * Runs `checks` against a server started from `spec`, `times` times in a row on the same server
 * (the second run meets what the first left), and returns each run's results.
 */
export async function runOnServer(
  protocol: Protocol,
  checks: readonly Check[],
  spec: ServerSpec = {},
  run: Partial<Pick<RunOptions, 'concurrency' | 'shuffle' | 'seed'>> & { times?: number } = {},
): Promise<CheckResult[][]> {
  // Compiled before the clock of any check starts: ajv's first compile of every schema blocks the
  // event loop for longer than the tests' short reply limit.
  if (protocol === 'cloud') {
    const { cloudSchemas, cloudValidator } = await import('../../src/schemas/cloud.ts');
    for (const name of Object.keys(cloudSchemas)) cloudValidator(name as keyof typeof cloudSchemas);
  }
  const server = await startServer(protocol, spec);
  try {
    const target = await prepareTarget(`${protocol}-matrix`, server.config);
    try {
      const runs: CheckResult[][] = [];
      for (let i = 0; i < (run.times ?? 1); i++) {
        runs.push(await runChecks(target, checks, { seed: run.seed ?? 1, timeouts: TEST_TIMEOUTS, concurrency: run.concurrency ?? 16, shuffle: run.shuffle }));
      }
      return runs;
    } finally {
      await target.stop();
    }
  } finally {
    await server.close();
  }
}

export const explain = (r: CheckResult): string => `${r.check.id}: ${r.status}${r.phase ? ` in ${r.phase}` : ''}${r.at ? ` at ${r.at}` : ''}: ${r.message ?? ''}`;

/**
 * What a check reached that its `touches` does not declare. `reached` holds routes as the
 * reference's recorder names them (`GET /account/events/:eventId`; `METHOD /path (no route)` where
 * no route matched) or, for WIRE, TermType names.
 */
export function undeclaredTouches(check: Pick<Check, 'protocol' | 'touches'>, reached: Iterable<string>): string[] {
  const declared = check.touches ?? [];
  if (check.protocol === 'wire') return [...reached].filter((t) => !declared.includes(`term:${t}`));
  const keys = new Set(declared.map(routeKey));
  const patterns = declared.map((d) => new RegExp(`^${d.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}/]*\}/g, '[^/]+')}$`));
  return [...reached].filter((r) => {
    const unmatched = / \(no route\)$/.exec(r);
    if (!unmatched) return !keys.has(routeKey(r));
    const path = r.slice(0, unmatched.index).replace(/^(\w+) \/v4(beta)?(?=\/)/, '$1 ');
    return !patterns.some((p) => p.test(path));
  });
}
