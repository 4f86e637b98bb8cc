// `conformance fuzz`: one campaign against one target. A line saying what the campaign may change
// on the target, a live progress line on a terminal, plain lines every few seconds otherwise;
// finding files and a JUnit file of the buckets under --out.
// Exit codes: 0 no finding, 1 findings, 2 usage, 3 target unreachable, 4 no case reached the
// server's logic (every answer 401, 403 or 429, or none), 130 interrupted (Ctrl-C: what was
// found is written first).
import { randomInt } from 'node:crypto';
import cliProgress from 'cli-progress';
import type { Command } from 'commander';
import { addAdhocOptions, loadAdhoc, type AdhocOptions } from './adhoc.ts';
import { integer, parseDuration, shardSpec } from './option-parsers.ts';
import { addImplementsOptions, filtersOf, type SelectionOptions } from './selection.ts';
import { DEFAULT_CONFIG_FILE, loadConfig } from '../config/load.ts';
import { Interrupted, TargetUnreachable, UsageError } from '../core/errors.ts';
import { EXIT } from '../reports/model.ts';
import type { Io } from './console.ts';
import type { CampaignProgress, Coverage } from '../../fuzz/core/campaign.ts';

export interface FuzzOptions extends AdhocOptions, Pick<SelectionOptions, 'includePath' | 'excludePath' | 'includeMethod' | 'includeTerm' | 'excludeTerm'> {
  target?: string;
  config?: string;
  runs?: number;
  time?: number;
  seed?: number;
  kind?: string[];
  concurrency: number;
  corpus?: string;
  out: string;
  fault?: string[];
  timeout: number;
  shrinkTime: number;
  shard?: { index: number; count: number };
}

export function addFuzzCommand(program: Command, io: Io, setExit: (code: number) => void): void {
  const cmd = program
    .command('fuzz')
    .description('fuzz a target: generated cases, oracles from the documents, shrunk findings')
    .option('-t, --target <name>', 'target from the config file (default: the first embedded WIRE target, wire-ref)')
    .option('-c, --config <file>', `config file (default: the nearest ${DEFAULT_CONFIG_FILE} (.mts, .js, .mjs) from here upward, else the built-in embedded targets)`)
    .option('--runs <n>', 'generated cases to run (default 10000 when --time is not given)', integer(1))
    .option('--time <duration>', 'stop after this long, e.g. 90s, 10m, 1h', parseDuration)
    .option('--seed <n>', 'campaign seed (default: random, printed)', integer(0, 2 ** 32 - 1))
    .option('--kind <name...>', 'fuzz kinds (default: every kind of the target protocol but the opt-in ones): wire-protobuf, wire-bytes, wire-handshake (wire); http-json, and opt-in http-json-sequence (cloud, needs allow: [destructive]); http-xml (build)')
    .option('--concurrency <n>', 'connections (lanes) at once', integer(1, 64), 2)
    .option('--corpus <dir>', 'run the saved cases of this directory first; save new interesting ones there')
    .option('-o, --out <dir>', 'report directory: findings under <out>/findings/, JUnit <out>/fuzz.junit.xml, the campaign in <out>/fuzz.json', 'reports')
    .option('--fault <name...>', 'inject faults into an embedded target (conformance list --faults)')
    .option('--shard <i/n>', 'run the i-th of n deterministic shares of the campaign (its chunks of the seed space and of --runs); combine the fuzz.json files with `conformance merge`', shardSpec)
    .option('--timeout <ms>', 'per case: wait this long for what the target owes', integer(1), 2000)
    .option('--shrink-time <ms>', 'time allowed to shrink one finding', integer(1), 10_000)
    .addHelpText('after', `
Examples:
  $ npx conformance fuzz --target wire-ref --runs 100000 --seed 42
  $ npx conformance fuzz --target wire-ref --time 10m --kind wire-bytes
  $ npx conformance fuzz --target cloud-ref --runs 2000 --seed 42
  $ npx conformance fuzz --target my-obs --time 10m --kind http-xml
  $ npx conformance fuzz --host db.test --port 28015 --runs 5000          # ad hoc WIRE target, no config
  $ CONFORMANCE_TOKENS_UNRESTRICTED=... npx conformance fuzz --url https://api.test/v4 --protocol cloud --time 10m
  $ npx conformance fuzz --target my-api --include-path '/account/**' --runs 2000   # only what my server implements
  $ npx conformance fuzz --target my-db --include-term 'DB_*' --include-term 'TABLE*'
  $ npx conformance fuzz --seed 42 --runs 400000 --shard 3/4 --out reports/fuzz-3
  $ npx conformance merge reports/fuzz-*/fuzz.json --out reports/fuzz
  $ npx conformance replay reports/findings/<file>.json
  $ npx conformance replay reports/findings/<file>.json --host db.test --port 28015

An ad hoc target (--url/--protocol, --host/--port) takes the options and the CONFORMANCE_*
credential variables of \`conformance run\` (see conformance --help); the replay line of each of
its findings names it again, credentials left out. \`replay\` takes the same options.

What a campaign may change on the target (printed when it starts):
  wire            only its scratch databases conformance_fuzz_<seed> and conformance_fuzz_<seed>_x,
                  created at the start and dropped at the end; every query is rewritten so that
                  whatever it writes or drops (DB_DROP, TABLE_DROP, INSERT, DELETE, GRANT...) lands
                  there. Always, whatever the config says.
  cloud, build    without allow: ['destructive'] in the target's config: reads, and writes to
                  scratch resources it creates and deletes at the end (build: the project
                  home:<user>:conformance-fuzz-<seed>; cloud: OAuth clients it creates). No
                  payments, promo codes, payment methods, users, grants, settings, transfers,
                  database changes, requests, status messages or PUT /person.
                  WITH allow: ['destructive'] it sends every route with random bodies, as the
                  configured token or user: it may make PAYMENTS, apply promo codes, add payment
                  methods, create and change users and grants, change account settings and any
                  OAuth client, create service transfers, change databases and take backups
                  (cloud); change the user's
                  person record, file requests against any project, post status messages and
                  status reports (build). Point it only at an account you can throw away.
                  The embedded cloud-ref and build-ref allow it unless their config says otherwise.

Exit codes: 0 no finding, 1 findings, 2 usage, 3 target unreachable (also: a gateway answering
502-504 before the first case), 4 no case reached the server's logic (no answer from past
authentication and rate limits: every one 401, 403 or 429, or none), 130 interrupted.`)
    .exitOverride()
    .action(async (opts: FuzzOptions) => setExit(await fuzzCommand(opts, io)));
  // The same ad hoc target options as `run` (src/cli/adhoc.ts): a server by address, no config.
  addAdhocOptions(cmd);
  // The same selection as `run` and `list`: a campaign sends only cases inside it (a target's `implements` too).
  addImplementsOptions(cmd);
}

export async function fuzzCommand(opts: FuzzOptions, io: Io): Promise<number> {
  const adhoc = await loadAdhoc(opts);
  const { config, file } = adhoc ?? (await loadConfig(opts.config));
  const names = Object.keys(config.targets);
  // Without --target, the ad hoc target, else the first embedded WIRE target (one campaign fuzzes one target).
  const name = adhoc?.name ?? opts.target ?? names.find((n) => config.targets[n].embedded && config.targets[n].protocol === 'wire');
  if (!name) throw new UsageError(`${file} has no embedded WIRE target; name one with --target`);
  const target = config.targets[name];
  if (!target) throw new UsageError(`unknown target '${name}' in ${file} (known: ${names.join(', ') || 'none'})`);
  if (opts.fault?.length && !target.embedded) throw new UsageError('--fault applies to embedded targets only');
  // Shards split one campaign: each must generate from the same seed.
  if (opts.shard && opts.seed === undefined) throw new UsageError('--shard needs --seed: every shard of a campaign must use the same seed');
  const seed = opts.seed ?? randomInt(0, 2 ** 32 - 1);
  const runs = opts.runs ?? (opts.time === undefined ? 10_000 : undefined);

  // The kinds are chosen (and an unknown --kind refused) in the campaign's thread, so this
  // thread never loads the generators.
  const { runFuzzInThread } = await import('../../fuzz/thread.ts');

  const controller = new AbortController();
  const onSigint = (signal: NodeJS.Signals) => {
    if (controller.signal.aborted) process.exit(EXIT.interrupted);
    controller.abort(new Interrupted(`interrupted by ${signal}`));
  };
  process.on('SIGINT', onSigint);
  process.on('SIGTERM', onSigint);
  let bar: cliProgress.SingleBar | undefined;
  let ticker: NodeJS.Timeout | undefined;
  try {
    const result = await runFuzzInThread({
      targetName: name,
      target,
      faults: opts.fault,
      kinds: opts.kind,
      seed,
      select: selectFilters(opts),
      runs,
      timeMs: opts.time,
      shard: opts.shard,
      concurrency: opts.concurrency,
      caseTimeoutMs: opts.timeout,
      shrinkMs: opts.shrinkTime,
      outDir: opts.out,
      corpusDir: opts.corpus,
    }, {
      onStart: (info, kinds, progress, changes) => {
        const faults = info.faults.length ? `, faults: ${info.faults.join(', ')}` : '';
        const limit = [runs !== undefined ? `${runs} runs` : '', opts.time !== undefined ? `${opts.time / 1000} s` : ''].filter(Boolean).join(', ');
        const shard = opts.shard ? `; shard ${opts.shard.index}/${opts.shard.count}` : '';
        io.out(`fuzz ${name} (${info.embedded ? 'embedded at ' : ''}${info.address}${faults}): kinds ${kinds.join(', ')}; seed ${seed}; ${limit}${shard}; concurrency ${opts.concurrency}`);
        io.out(`  ${changes}`);
        const scope = selectionWords(opts, target.implements as Record<string, string[] | undefined> | undefined);
        if (scope) io.out(`  sends only: ${scope}`);
        if (io.interactive) {
          bar = new cliProgress.SingleBar(
            { format: '  {cases} cases | {rate} cases/s | {findings} findings | {elapsed}s', stream: process.stderr, hideCursor: true, clearOnComplete: true },
            cliProgress.Presets.shades_classic,
          );
          bar.start(0, 0, progressFields(progress()));
          ticker = setInterval(() => bar?.update(progressFields(progress())), 200);
        } else {
          ticker = setInterval(() => io.out(`  ${progressLine(progress())}`), 5000);
        }
        ticker.unref();
      },
      onFinding: (f, path) => {
        bar?.stop();
        io.out(`  FINDING ${f.oracle}: ${f.message} -> ${path}`);
        if (bar) bar.start(0, 0, {});
      },
    }, controller.signal);
    clearInterval(ticker);
    bar?.stop();
    // Only an embedded target is restarted; one the tool cannot restart is found dead and left so.
    const revived = result.restarts ? `; target restarted ${result.restarts} time(s)` : '';
    const dead = result.recoveryAttempts ? `; target found dead ${result.recoveryAttempts} time(s), not restarted (the tool cannot restart it)` : '';
    io.out(`  ${progressLine(result)}; stopped by ${result.stopReason}${revived}${dead}${result.unconfirmed ? `; ${result.unconfirmed} suspect(s) passed alone` : ''}`);
    io.out(`  ${coverageLine(result.coverage)}`);
    for (const left of result.scratch.left) io.err(`conformance: warning: could not remove the campaign's scratch ${left.name}: ${left.reason}`);
    const removed = result.scratch.removed;
    if (removed.length) io.out(`  scratch removed: ${removed.slice(0, 5).join(', ')}${removed.length > 5 ? ` and ${removed.length - 5} more` : ''}`);
    if (result.corpusRun || result.corpusSaved) io.out(`  corpus: ${result.corpusRun} case(s) run, ${result.corpusSaved} saved to ${opts.corpus}`);
    // An ad hoc target is in no config: its replay line names it again (credentials left out).
    const again = adhoc ? ` ${adhoc.words.join(' ')}` : '';
    for (const { finding, path } of result.findingFiles) io.out(`  bucket ${finding.rule?.class === 'robustness' ? 'robustness ' : ''}${finding.oracle} [${finding.signature}] x${finding.hits}${finding.rule?.spec ? ` (${finding.rule.level} ${finding.rule.spec.file}:${finding.rule.spec.line})` : ''}: npx conformance replay ${path}${again}`);
    io.out(`reports: ${result.junitPath}, ${result.jsonPath}${result.findingFiles.length ? `, ${result.findingFiles.length} finding file(s)` : ''}`);
    if (result.stopReason === 'interrupted') return EXIT.interrupted;
    // A campaign in which no case reached the server's logic tested nothing: exit 4, also beside
    // document findings (they came from cases answered at the door: not-found, a refusal). A
    // robustness finding (a hang, a dead server, a cut answer, a 5xx) is about the server's own
    // machinery whatever was reached: exit 1, and the lack of coverage said beside it.
    const { noCoverageReason } = await import('../../fuzz/core/report.ts');
    const none = noCoverageReason(result);
    if (none) {
      const n = result.findingFiles.length;
      const robust = result.findingFiles.filter((f) => f.finding.rule?.class === 'robustness').length;
      io.err(`conformance: ${none}${n ? `; the ${n} finding(s) above come from cases that never reached it` : ''}${robust ? ` (${robust} of them robustness: exit 1)` : ''}`);
      if (!robust) return EXIT_NO_COVERAGE;
    }
    if (result.findingFiles.length) return EXIT.failed;
    return EXIT.ok;
  } catch (err) {
    clearInterval(ticker);
    bar?.stop();
    if (err instanceof TargetUnreachable) {
      io.err(`conformance: target unreachable: ${err.message}`);
      return EXIT.unreachable;
    }
    throw err;
  } finally {
    process.off('SIGINT', onSigint);
    process.off('SIGTERM', onSigint);
  }
}

/** `fuzz` exits 4 when no case reached the server's logic (fuzz/core/report.ts noCoverageReason) and nothing broke its robustness. */
export const EXIT_NO_COVERAGE = 4;

function coverageLine(c: Coverage): string {
  const top = (m: Record<string, number>, n: number) => {
    const e = Object.entries(m);
    return `${e.slice(0, n).map(([k, v]) => `${k} x${v}`).join(', ')}${e.length > n ? `, and ${e.length - n} more` : ''}`;
  };
  const reached = Object.keys(c.reached).length;
  const logic = c.casesReached === undefined ? '' : `${c.casesReached} of ${c.casesCounted} case(s) reached the server's logic, `;
  return `coverage: ${logic}${c.casesPastGates} of ${c.casesCounted} past authentication and rate limits; answers ${top(c.answers, 8) || 'none'}; ${reached} route(s) or term(s) reached${reached ? ` (cases per route or term: ${top(c.reached, 5)})` : ''}`;
}

function progressFields(p: CampaignProgress) {
  return { cases: p.cases, findings: p.findings, rate: Math.round(p.cases / Math.max(p.elapsedMs / 1000, 0.001)), elapsed: (p.elapsedMs / 1000).toFixed(1) };
}

function progressLine(p: CampaignProgress): string {
  const f = progressFields(p);
  return `${f.cases} cases, ${f.rate} cases/s, ${f.findings} finding(s), ${f.elapsed} s`;
}

/** The selection options given, as the registry's filters. */
function selectFilters(opts: FuzzOptions) {
  const { includePath, excludePath, includeMethod, includeTerm, excludeTerm } = filtersOf(opts);
  return { includePath, excludePath, includeMethod, includeTerm, excludeTerm };
}

/** "--include-path /account/**; implements.paths /account/**, /databases/**" (empty: no selection). */
function selectionWords(opts: FuzzOptions, impl: Record<string, string[] | undefined> | undefined): string {
  const f = selectFilters(opts);
  const words = Object.entries(f).flatMap(([k, v]) => (v?.length ? [`--${k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)} ${v.join(', ')}`] : []));
  for (const [k, v] of Object.entries(impl ?? {})) if (v?.length) words.push(`implements.${k} ${v.join(', ')}`);
  return words.join('; ');
}
