// `conformance replay <file>`: sends the exact bytes of a finding file again and says whether the
// oracle still fails (a finding of a target that died after several cases: all of them, in the
// order they were sent). `--no-faults`: an embedded target without the faults the finding
// recorded. Exit 1 if it still fails, 0 if not, 2 usage, 3 target unreachable.
import { Command } from 'commander';
import { addAdhocOptions, loadAdhoc, type AdhocOptions } from './adhoc.ts';
import { DEFAULT_CONFIG_FILE, loadConfig } from '../config/load.ts';
import { TargetUnreachable, UsageError } from '../core/errors.ts';
import { messageText, Redactor } from '../reports/boundary.ts';
import { secretsOf } from '../adapters/secrets.ts';
import { EXIT } from '../reports/model.ts';
import type { Io } from './console.ts';
import { integer } from './option-parsers.ts';

export interface ReplayOptions extends AdhocOptions {
  target?: string;
  config?: string;
  fault?: string[];
  /** `--no-faults`: commander sets `faults: false`. */
  faults?: boolean;
  timeout: number;
  repeat?: number;
}

export function addReplayCommand(program: Command, io: Io, setExit: (code: number) => void): void {
  const cmd = program
    .command('replay')
    .description('send the bytes of a finding file again and say whether it still fails')
    .argument('<file>', 'a finding file, e.g. reports/findings/<oracle>-<id>.json')
    .option('-t, --target <name>', 'target from the config file (default: the one named in the finding)')
    .option('-c, --config <file>', `config file (default: the nearest ${DEFAULT_CONFIG_FILE} (.mts, .js, .mjs) from here upward, else the built-in embedded targets)`)
    .option('--fault <name...>', 'faults for an embedded target (default: the faults recorded in the finding)')
    .option('--no-faults', 'an embedded target without any fault (whatever the finding recorded)')
    .option('--timeout <ms>', 'wait this long for what the target owes', (v) => Number(v), 2000)
    .option('--repeat <n>', 'replay n more times (each on a fresh connection; an embedded target started anew) and say whether the finding is flaky or deterministic', integer(1, 100))
    .exitOverride()
    .action(async (file: string, opts: ReplayOptions) => setExit(await replayCommand(file, opts, io)));
  // A finding of an ad hoc target (or any finding) against a server given by address, as `fuzz` takes it.
  addAdhocOptions(cmd);
}

export async function replayCommand(file: string, opts: ReplayOptions, io: Io): Promise<number> {
  const { readFinding } = await import('../../fuzz/core/findings.ts');
  const { replayFinding } = await import('../../fuzz/replay.ts');
  const finding = await readFinding(file);
  const adhoc = await loadAdhoc(opts);
  const { config, file: configFile } = adhoc ?? (await loadConfig(opts.config));
  const name = adhoc?.name ?? opts.target ?? finding.target.name;
  const target = config.targets[name];
  if (!target) throw new UsageError(`unknown target '${name}' in ${configFile} (known: ${Object.keys(config.targets).join(', ') || 'none'})`);
  if (opts.faults === false && opts.fault?.length) throw new UsageError('--no-faults and --fault exclude each other');
  if (opts.faults === false && !target.embedded) throw new UsageError(`--no-faults applies to embedded targets only ('${name}' is external)`);
  const faults = target.embedded ? (opts.faults === false ? [] : (opts.fault ?? [...finding.target.faults])) : [];
  const runs: Awaited<ReturnType<typeof replayFinding>>[] = [];
  try {
    for (let i = 0; i <= (opts.repeat ?? 0); i++) runs.push(await replayFinding(finding, name, target, { faults, timeoutMs: opts.timeout }));
  } catch (err) {
    if (err instanceof TargetUnreachable) {
      io.err(`conformance: target unreachable: ${err.message}`);
      return EXIT.unreachable;
    }
    throw err;
  }
  const [result] = runs;
  io.out(`replay ${file} (${finding.kind}, ${finding.oracle}) against ${name} at ${result.target.address}${faults.length ? ` with faults ${faults.join(', ')}` : ''}`);
  if (finding.sequence) io.out(`  sent the finding's ${finding.sequence.length} case(s) in the order the campaign sent them`);
  if (opts.repeat) {
    const failing = runs.filter((r) => r.outcome.violations.length > 0).length;
    const label = failing === 0 || failing === runs.length ? 'deterministic' : 'flaky';
    io.out(`  repeat: ${label}: failed ${failing} of ${runs.length} replays${failing ? ` (${runs.filter((r) => r.sameOracle).length} with the recorded oracle ${finding.oracle})` : ''}`);
  }
  // Any replay that fails: the finding is still there, if only now and then.
  const failed = runs.find((r) => r.outcome.violations.length > 0);
  if (!failed) {
    io.out(`  passes now: no oracle fails${runs.length > 1 ? ` (in ${runs.length} replays)` : ''}`);
    return EXIT.ok;
  }
  const { violations } = failed.outcome;
  io.out(failed.sameOracle ? `  still fails: ${finding.oracle}` : `  fails differently (the recorded oracle ${finding.oracle} holds now)`);
  // What the target answered now goes through the same boundary as every report.
  const redactor = new Redactor(secretsOf(target));
  for (const v of violations) io.out(`  ${v.oracle}: ${messageText(v.message, redactor)}`);
  return EXIT.failed;
}
