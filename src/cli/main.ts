// The command-line program (commander 14): run (the default), list.
// Exit codes: 0 all selected checks passed; 1 a check failed or errored; 2 usage or config
// error; 3 a target was unreachable (or refused the handshake or credentials) before any check
// ran; 130 interrupted (Ctrl-C).
import { randomInt } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { Command, CommanderError, Option } from 'commander';
import { DEFAULT_TIMEOUTS, PROTOCOLS, timeoutsFor, type Protocol } from '../core/check.ts';
import { Bailed, ConfigError, Interrupted, RunTimeout, UsageError } from '../core/errors.ts';
import { loadChecks, selectChecks } from '../core/registry.ts';
import { applyBaseline, baselineFailure, isKnown, loadBaseline, markKnown } from '../reports/baseline.ts';
import { registerReportCommands } from './report-commands.ts';
import { DEFAULT_CONFIG_FILE, loadConfig } from '../config/load.ts';
import { EXIT, exitCodeOf, gates } from '../reports/model.ts';
import { stepSummaryProblem } from '../reports/write.ts';
import { addAdhocOptions, loadAdhoc, type AdhocOptions } from './adhoc.ts';
import { JUNIT_HELP, parseReporters, prepareOutputs, writeRunReports } from './report-output.ts';
import { processIo, RunDisplay, type Io } from './console.ts';
import { DEFAULT_CONCURRENCY, executeRun } from './execute.ts';
import { faultCatalogue } from '../adapters/index.ts';
import type { ConformanceConfig } from '../config/types.ts';
import { addFuzzCommand } from './fuzz.ts';
import { integer, shardSpec } from './option-parsers.ts';
import { listCommand, type ListOptions } from './list.ts';
import { addReplayCommand } from './replay.ts';
import { addServeCommand } from './serve.ts';
import { TOOL } from './tool.ts';
import { addImplementsOptions, filtersOf, reportFilters, selectForTarget, type SelectionOptions } from './selection.ts';

interface RunOptions extends AdhocOptions, SelectionOptions {
  target?: string[];
  config?: string;
  reporter: string;
  out: string;
  junit?: string;
  only?: string[];
  skip?: string[];
  level?: 'must' | 'should';
  timeout?: number;
  runTimeout?: number;
  seed?: number;
  fault?: string[];
  concurrency?: number;
  verbose?: boolean;
  baseline?: string;
  baselineFailuresOnly?: boolean;
  shard?: { index: number; count: number };
  strict?: boolean;
  bail?: boolean;
  shuffle?: boolean;
  repeat?: number;
}

const HELP_AFTER = `
Examples:
  $ npx conformance                                  run every configured target (built in: the references and variants)
  $ npx conformance --target wire-ref                one target from targets.config.ts
  $ npx conformance --protocol cloud --url http://127.0.0.1:8080 --token "$CONFORMANCE_TOKENS_UNRESTRICTED"
                                                     an ad hoc target, no config file (as h2spec -h -p, st run <url>)
  $ npx conformance --host 127.0.0.1 --port 28015    an ad hoc WIRE target (key from CONFORMANCE_AUTH_KEY, or --auth-key)
  $ npx conformance --target my-db --only 'wire.handshake.*' --level must
  $ npx conformance --target wire-ref --fault batch-1000   prove a check fails (embedded targets only)
  $ npx conformance list --json                      every check with its metadata
  $ npx conformance baseline --from reports/conformance.json --output conformance.baseline
  $ npx conformance --baseline conformance.baseline  fail only on regressions from the recorded outcomes
  $ npx conformance --target my-db --strict          inconclusive checks fail the run too
  $ npx conformance --target my-api --include-path '/account/**' --include-method GET
                                                     only the checks inside what a server implements
  $ npx conformance --target my-db --exclude-term 'DB_*' 'TABLE_*'   WIRE: leave out checks sending those terms
  $ npx conformance --shard 2/4 --seed 7 --out reports/shard-2 && npx conformance merge reports/shard-*/conformance.json
  $ npx conformance --junit results/junit.xml        every target's JUnit in one file of your choosing
  $ npx conformance diff old/conformance.json reports/conformance.json
  $ npx conformance serve cloud --port 8080          a reference server for your own client (Ctrl-C stops it)

Reports (written atomically): junit -> <out>/<target>.junit.xml per target; json -> <out>/conformance.json;
html -> <out>/conformance.html (self-contained); markdown -> <out>/conformance.md (pull-request comments);
github -> annotations in the job log (and the markdown into $GITHUB_STEP_SUMMARY).
-o is --out <dir> in every command that writes reports (run, fuzz, merge).

Credentials from the environment (ad hoc targets and serve; name them with process.env in a config):
  CONFORMANCE_ + the config field in upper snake case: CONFORMANCE_AUTH_KEY, CONFORMANCE_RESTRICTED_AUTH_KEY (wire);
  CONFORMANCE_TOKENS_UNRESTRICTED, _RESTRICTED, _RESTRICTED_READ_WRITE, _READ_ONLY, _OTHER_ACCOUNT, _CANCELLABLE (cloud);
  CONFORMANCE_USERS_<USER|ADMIN|PRIVILEGED>_USERNAME and _PASSWORD, CONFORMANCE_TOKEN (build).
  The curl lines of reports use the same names as shell variables.

Outcomes of a check:
  passed        the rule held where the check looked
  failed        the target broke the rule the check tests
  inconclusive  the rule was not tested: a set-up step or precondition did not hold on the target,
                or the behaviour could not be observed (the reason names the request and what came back)
  error         the exchange broke down (target reset, timed out, sent garbage) or the tool did
  skipped       not selected, not allowed (allow: in the config), or a role/fixture not configured

Exit codes:
  0    no check failed or errored (skipped and inconclusive checks do not fail a run, unless --strict)
  1    at least one check failed or errored (with --strict: or was inconclusive)
  2    usage or configuration error (unknown target, broken config file, bad option)
  3    a target was unreachable before any check ran, or unusable: it refused the handshake or the
       configured credentials (401) on a first request, so no check could test anything
  130  interrupted (Ctrl-C or SIGTERM); the reports hold the checks that finished`;

/** What an action reports back to main(): the process exit code. */
type SetExit = (code: number) => void;

function addRunOptions(cmd: Command, io: Io, setExit: SetExit): Command {
  cmd
    .option('-t, --target <name...>', 'targets from the config file (default: every target it configures)')
    .option('-c, --config <file>', `config file (default: the nearest ${DEFAULT_CONFIG_FILE} (.mts, .js, .mjs) from here upward, else the built-in embedded targets)`)
    .option('-r, --reporter <list>', 'comma-separated reporters: junit, json, html, markdown, github', 'junit,json')
    .option('-o, --out <dir>', 'directory for reports', 'reports')
    .option('--junit <file>', JUNIT_HELP)
    .option('--only <pattern...>', 'run only checks whose id matches a glob or whose section is named (case-insensitive; a prefix is enough)')
    .option('--skip <pattern...>', 'leave out checks whose id matches a glob or whose section is named (case-insensitive; a prefix is enough)')
    .addOption(new Option('--level <level>', 'must: MUST checks only; should: MUST and SHOULD').choices(['must', 'should']))
    .option('--timeout <ms>', `time limit per check (default ${DEFAULT_TIMEOUTS.checkMs})`, integer(1))
    .option('--run-timeout <ms>', 'time limit for the whole run; checks not finished by then are errors', integer(1))
    .option('--seed <n>', 'seed for anything random, recorded in every report (default: random)', integer(0, 2 ** 32 - 1))
    .option('--fault <name...>', 'inject named faults into embedded reference targets (see: conformance list --faults)')
    .option('--concurrency <n>', `checks run at once per target (default ${DEFAULT_CONCURRENCY.external}; ${DEFAULT_CONCURRENCY.embedded} for embedded targets)`, integer(1, 256))
    .option('--baseline <file>', 'the outcomes of an earlier run (`conformance baseline`): only regressions fail the run (a new failure, a passed check now inconclusive, a known failure with another message)')
    .option('--baseline-failures-only', 'with --baseline: only new failures fail the run (a passed check now inconclusive, or a known failure with another message, is reported, not gated)')
    .option('--shard <i/n>', 'run the i-th of n deterministic shares of the selected checks, with --seed (merge the reports with `conformance merge`)', shardSpec)
    .option('--shuffle', 'start the checks in an order drawn from --seed (owners of relied-on rules still first): checks that pass only in one order are in each other\'s way')
    .option('--repeat <n>', 'run each failing check (and each known failure that passed) n more times alone, on fresh connections, and label it flaky or deterministic in every report', integer(1, 100))
    .option('--strict', 'inconclusive checks (rule not tested) fail the run too')
    .option('--bail', 'stop at the first check that fails the run (not a known one); the rest are skipped')
    .option('-v, --verbose', 'list passed checks too, with where each outcome ended and the notes')
    .action(async (opts: RunOptions) => setExit(await runCommand(opts, io)));
  return addAdhocOptions(addImplementsOptions(cmd));
}

export function buildProgram(io: Io = processIo, setExit: SetExit = () => {}): Command {
  const program = new Command('conformance')
    .description('Conformance checks and fuzzing for servers of the wire, cloud and build protocols.')
    .version(TOOL.version)
    .showHelpAfterError('(run with --help for usage)')
    .configureOutput({ writeOut: (s) => io.out(s.trimEnd()), writeErr: (s) => io.err(s.trimEnd()) })
    // The program and `run` share option names: options after a subcommand belong to it.
    .enablePositionalOptions()
    .exitOverride();
  addRunOptions(program, io, setExit).addHelpText('after', HELP_AFTER);
  addRunOptions(program.command('run').description('run checks against targets (the default command)'), io, setExit).exitOverride();
  program
    .command('list')
    .description('list the registered checks')
    .option('--json', 'print JSON: id, title, protocol, section, level, spec {file, line, quote}, faults, tags, terms, touches, writes, reads, reliesOn, keptBy')
    .option('--protocol <name>', `only one protocol (${PROTOCOLS.join(', ')})`)
    .option('--faults', 'list the faults of the embedded reference targets instead')
    .option('--only <pattern...>', 'as for run: only checks whose id matches a glob or whose section is named (a prefix is enough)')
    .option('--skip <pattern...>', 'as for run: leave out checks whose id matches a glob or whose section is named')
    .addOption(new Option('--level <level>', 'must: MUST checks only; should: MUST and SHOULD').choices(['must', 'should']))
    .option('-t, --target <name>', "as for run: only the target's protocol, and its implements (config) applied")
    .option('-c, --config <file>', `config file for --target (default: the nearest ${DEFAULT_CONFIG_FILE})`)
    .exitOverride()
    .action(async (opts: ListOptions) => listCommand(opts, io));
  addImplementsOptions(program.commands.find((c) => c.name() === 'list')!);
  addFuzzCommand(program, io, setExit);
  addReplayCommand(program, io, setExit);
  addServeCommand(program, io, setExit);
  registerReportCommands(program, io, setExit);
  return program;
}

export async function main(argv: string[], io: Io = processIo): Promise<number> {
  let exitCode: number = EXIT.ok;
  const program = buildProgram(io, (code) => (exitCode = code));
  try {
    await program.parseAsync(argv);
    return exitCode;
  } catch (err) {
    if (err instanceof CommanderError) {
      return err.exitCode === 0 ? EXIT.ok : EXIT.usage; // commander printed the message
    }
    if (err instanceof ConfigError || err instanceof UsageError) {
      io.err(`conformance: ${err.message}`);
      return EXIT.usage;
    }
    io.err(`conformance: internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    return 70;
  }
}

/** --fault names, each given to the selected embedded targets whose reference catalogue has it. */
async function assignFaults(config: ConformanceConfig, named: string[] | undefined, faults: string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  if (!faults.length) return out;
  const candidates = (named ?? Object.keys(config.targets)).filter((t) => config.targets[t].embedded);
  if (!candidates.length) throw new UsageError('--fault applies to embedded targets only, and none is selected');
  for (const fault of faults) {
    const takers: string[] = [];
    for (const t of candidates) if (fault in (await faultCatalogue(config.targets[t].protocol))) takers.push(t);
    if (!takers.length) throw new UsageError(`unknown fault '${fault}' for ${candidates.join(', ')} (see: conformance list --faults)`);
    for (const t of takers) out.set(t, [...(out.get(t) ?? []), fault]);
  }
  return out;
}

export async function runCommand(opts: RunOptions, io: Io): Promise<number> {
  const reporters = parseReporters(opts.reporter);
  // Merge refuses shards of different runs, and a shard without a seed would draw its own.
  if (opts.shard && opts.seed === undefined) throw new UsageError('--shard needs --seed: every shard of a run must use the same seed (merge refuses shards of different runs)');
  // An ad hoc target replaces the config; only the targets a run uses are validated in full.
  const adhoc = await loadAdhoc(opts);
  const { config, file } = adhoc ?? (await loadConfig(opts.config, process.cwd(), { only: opts.target }));
  const names = Object.keys(config.targets);
  const faultsByTarget = await assignFaults(config, opts.target, opts.fault ?? []);
  // Without --target every configured target runs; with --fault, the embedded ones that know it.
  let targets = opts.target ?? names;
  if (!opts.target && opts.fault?.length) targets = targets.filter((t) => faultsByTarget.has(t));
  if (!targets.length) throw new UsageError(`${file} configures no target`);
  targets = [...new Set(targets)];

  const protocols = [...new Set(targets.map((t) => config.targets[t].protocol))] as Protocol[];
  const filters = filtersOf(opts);
  const all = await loadChecks(protocols);
  const runWide = selectChecks(all, filters);
  if (!runWide.length) throw new UsageError('no check matches the selection (--only / --skip / --level / --include-* / --exclude-*)');
  // Each target: the run's filters, the shard, then its own `implements`; the reports say what each left out.
  const shard = opts.shard ? { ...opts.shard, of: runWide } : undefined;
  const perTarget = new Map(targets.map((t) => [t, selectForTarget(all, config.targets[t], filters, shard)]));
  const checks = [...new Set([...perTarget.values()].flatMap((s) => s.checks))];
  if (opts.baselineFailuresOnly && !opts.baseline) throw new UsageError('--baseline-failures-only goes with --baseline <file>');
  const baseline = opts.baseline ? await loadBaseline(opts.baseline, { failuresOnly: opts.baselineFailuresOnly }) : undefined;
  // Where the reports go is checked before any check runs: a run is never lost at the end.
  await prepareOutputs(opts.out, opts.junit);
  if (reporters.includes('github')) {
    const problem = await stepSummaryProblem();
    if (problem) io.err(`conformance: warning: ${problem}`);
  }

  const seed = opts.seed ?? randomInt(0, 2 ** 32 - 1);
  const controller = new AbortController();
  // Every running check listens for the end of the run: one listener per check in flight.
  setMaxListeners(0, controller.signal);
  const runTimer = opts.runTimeout
    ? setTimeout(() => controller.abort(new RunTimeout(opts.runTimeout!)), opts.runTimeout)
    : undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    if (controller.signal.aborted) process.exit(EXIT.interrupted); // a second Ctrl-C: leave now
    controller.abort(new Interrupted(`interrupted by ${signal}`));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const display = new RunDisplay(io, Boolean(opts.verbose), Boolean(opts.strict));
  try {
    const report = await executeRun(config, {
      targets,
      checks,
      seed,
      timeouts: timeoutsFor(opts.timeout),
      concurrency: opts.concurrency,
      shuffle: opts.shuffle === true,
      faults: faultsByTarget,
      filters: reportFilters(filters),
      perTarget,
      signal: controller.signal,
      repeat: opts.repeat,
      // A known failure that passed this time: repeated too, so that the baseline advises removing only a steady pass.
      repeatAlso: (t, r) => r.status === 'passed' && baseline !== undefined && baselineFailure(baseline, t, r.check.id),
      hooks: {
        onTargetStart: (t, cs) => display.targetStart(t, cs, perTarget.get(t.name)?.selection),
        onResult: (t, r) => {
          display.result(r);
          const known = baseline && isKnown(baseline, t.name, r, opts.strict);
          if (opts.bail && gates(r.status, opts.strict) && !known && !controller.signal.aborted) controller.abort(new Bailed(r.check.id));
        },
        onTargetEnd: (t) => {
          // Known failures are shown as known as soon as their target ends.
          if (baseline) markKnown(t, baseline, opts.strict);
          display.targetEnd(t, { seed });
        },
      },
    });
    if (opts.shard) report.shard = opts.shard;
    if (opts.strict) report.strict = true;
    // What a reproduction needs to run the same way.
    if (opts.config) report.config = opts.config;
    if (opts.timeout) report.timeoutMs = opts.timeout;
    if (adhoc) report.adhoc = adhoc.words;
    if (baseline) report.baseline = applyBaseline(report, baseline);
    const paths = await writeRunReports(report, reporters, opts.out, opts.junit, io.out);
    display.finish(report, paths);
    return exitCodeOf(report);
  } finally {
    clearTimeout(runTimer);
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
