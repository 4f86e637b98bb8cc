// What a person sees: a progress bar on a TTY (cli-progress; nothing in CI or when piped),
// then one line per check that did not pass and a summary per target.
import { styleText } from 'node:util';
import cliProgress from 'cli-progress';
import type { Check } from '../core/check.ts';
import type { CheckResult } from '../core/result.ts';
import type { PreparedTarget } from '../adapters/index.ts';
import { repeatText, totalsLine } from '../core/result.ts';
import { baselineLines, citation, EXIT, stoppedBeforeChecks, gates, outcomeDetails, reproduceCommand, selectionLines, selectionText, verdictLines, type RunReport, type TargetReport } from '../reports/model.ts';
import { firstExchangeLine, skipSummary } from '../reports/outcome-text.ts';

export interface Io {
  out(line: string): void;
  err(line: string): void;
  /** Progress display is for people at a terminal, not for CI logs. */
  interactive: boolean;
}

// A reader that goes away (`conformance list | head`) must not crash a run whose reports
// still have to be written: write errors on a closed pipe are dropped.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EPIPE' && err.code !== 'ERR_STREAM_DESTROYED') throw err;
  });
}

/** `CI=false` or `CI=0` is no CI: only a set, true-ish value means the output goes to a CI log. */
export function inCi(env: NodeJS.ProcessEnv = process.env): boolean {
  const v = (env.CI ?? '').trim().toLowerCase();
  return v !== '' && v !== '0' && v !== 'false' && v !== 'no';
}

export const processIo: Io = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
  interactive: Boolean(process.stderr.isTTY) && !inCi(),
};

const MARK: Record<CheckResult['status'], string> = { passed: 'PASS ', failed: 'FAIL ', inconclusive: 'INCON', error: 'ERROR', skipped: 'SKIP ' };
type Colour = Parameters<typeof styleText>[0];
const COLOUR: Record<CheckResult['status'], Colour> = { passed: 'green', failed: 'red', inconclusive: 'magenta', error: 'yellow', skipped: 'gray' };

/**
 * The mark of a result, coloured by node's styleText: only on a terminal, never under NO_COLOR,
 * always under FORCE_COLOR. Only the tool's own words are coloured, never a target's.
 */
function mark(r: CheckResult): string {
  return r.known ? styleText('cyan', 'KNOWN') : styleText(COLOUR[r.status], MARK[r.status]);
}

export class RunDisplay {
  private bar: cliProgress.SingleBar | undefined;
  private failed = 0;

  constructor(
    private readonly io: Io,
    private readonly verbose: boolean,
    private readonly strict = false,
  ) {}

  targetStart(target: PreparedTarget, checks: readonly Check[], selection?: TargetReport['selection']): void {
    const where = target.embedded ? `embedded at ${target.address}` : target.address;
    const faults = target.faults.length ? `, faults: ${target.faults.join(', ')}` : '';
    this.io.out(`${target.name} (${target.protocol}, ${where}${faults}): ${checks.length} checks`);
    if (selection && Object.keys(selection.notSelected).length) this.io.out(`  selection: ${selectionText(selection)}`);
    this.failed = 0;
    if (this.io.interactive) {
      this.bar = new cliProgress.SingleBar(
        { format: '  [{bar}] {value}/{total} checks | {failed} not passed | {duration}s', stream: process.stderr, clearOnComplete: true, hideCursor: true },
        cliProgress.Presets.shades_classic,
      );
      this.bar.start(checks.length, 0, { failed: 0 });
    }
  }

  result(r: CheckResult): void {
    if (r.status !== 'passed' && r.status !== 'skipped') this.failed++;
    this.bar?.increment(1, { failed: this.failed });
  }

  targetEnd(t: TargetReport, run: Pick<RunReport, 'seed'>): void {
    this.bar?.stop();
    this.bar = undefined;
    const stopped = stoppedBeforeChecks(t);
    if (stopped) this.io.out(`  target ${t.status}: ${t.error} — no check run (exit ${EXIT.unreachable})`);
    for (const r of t.results) {
      // A pass that was repeated (a known failure that passed) is shown with how its repeats ended.
      if (r.status === 'passed' && !this.verbose && !r.repeats) continue;
      // Skips are summarised by reason below; -v lists them.
      if (r.status === 'skipped' && !this.verbose) continue;
      if (stopped) continue;
      this.io.out(`  ${mark(r)} ${r.check.id}${r.message ? `: ${r.message}` : ''}`);
      // A failure names the rule it broke, as h2spec prints the requirement under each failure,
      // and the exchange that shows it (a curl line; WIRE: the query sent).
      if (r.status === 'failed' && !r.known) this.io.out(`          spec: ${citation(r.check)} "${r.check.spec.quote}"`);
      if ((r.status === 'failed' || r.status === 'error') && !r.known) {
        const line = firstExchangeLine(r);
        if (line) this.io.out(`          ${line}`);
      }
      if (r.repeats && !this.verbose) this.io.out(`          repeat: ${repeatText(r.repeats)}${r.repeats.failedMessage ? `; a repeat failed: ${r.repeats.failedMessage}` : ''}`);
      // With --verbose, where each outcome ended and the notes (a pass says what it could not see).
      if (this.verbose) for (const d of outcomeDetails(r)) this.io.out(`          ${d}`);
    }
    const skips = skipSummary(t.results);
    if (skips && !this.verbose && !stopped) this.io.out(`  ${skips} (-v lists them)`);
    this.io.out(`  ${totalsLine(t.totals)} (${(t.durationMs / 1000).toFixed(2)} s, seed ${run.seed})`);
  }

  finish(report: RunReport, paths: string[]): void {
    const firstBad = report.targets.flatMap((t) => t.results.filter((r) => gates(r.status, this.strict) && !r.known).map((r) => [t, r] as const))[0];
    if (firstBad && !stoppedBeforeChecks(firstBad[0])) this.io.out(`reproduce the first failure: ${reproduceCommand(report, firstBad[0], firstBad[1].check.id)}`);
    if (report.interrupted) this.io.out(`run interrupted (${report.interrupted}); reports hold what finished`);
    if (report.baseline) for (const line of baselineLines(report.baseline)) this.io.out(line);
    // The gate's verdict in words, as every report's header says it.
    const [head, ...rest] = verdictLines(report);
    this.io.out(`verdict: ${head}`);
    for (const line of rest) this.io.out(line);
    for (const line of selectionLines(report, true)) this.io.out(`selection: ${line}`);
    if (report.shard) this.io.out(`shard ${report.shard.index}/${report.shard.count}`);
    if (paths.length) this.io.out(`reports: ${paths.join(', ')}`);
  }
}
