// Commands that work on reports already written: baseline, merge, diff.
import { Option, type Command } from 'commander';
import { UsageError } from '../core/errors.ts';
import { totalsLine } from '../core/result.ts';
import { applyBaseline, baselineFrom, loadBaseline } from '../reports/baseline.ts';
import { carriedBaseline, diffGates, diffReports, mergeReports, readReport } from '../reports/merge.ts';
import { baselineLines, EXIT, exitCodeOf } from '../reports/model.ts';
import { REPORTER_NAMES, writeFileAtomic } from '../reports/write.ts';
import type { Io } from './console.ts';
import { JUNIT_HELP, parseReporters, prepareOutputs, writeRunReports } from './report-output.ts';

export function registerReportCommands(program: Command, io: Io, setExit: (code: number) => void): void {
  program
    .command('baseline')
    .description('write a baseline (every outcome: passed, inconclusive, failed with its message) from a JSON report')
    .requiredOption('--from <report>', 'a conformance.json written by a run')
    // No -o here: -o is --out <dir> in every command that writes reports (run, fuzz, merge), and
    // a baseline is one file, so its path has the long name only. The old `-o <file>` is refused
    // with a pointer rather than read as a directory.
    .option('--output <file>', 'where to write it', 'conformance.baseline')
    .addOption(new Option('-o, --out <x>').hideHelp())
    .addHelpText('after', '\n-o is --out <dir> in run, fuzz and merge; a baseline is one file, named by --output.')
    .exitOverride()
    .action(async (opts: { from: string; output: string; out?: string }) => {
      if (opts.out !== undefined) throw new UsageError(`baseline writes one file: name it with --output ${opts.out} (-o is --out <dir> in run, fuzz and merge)`);
      const text = baselineFrom(await readReport(opts.from));
      await writeFileAtomic(opts.output, text);
      const lines = text.split('\n').filter((l) => l && !l.startsWith('#'));
      const count = (status: string) => lines.filter((l) => l.split(' ')[2] === status).length;
      io.out(`${opts.output}: ${count('failed') + count('error')} known failing checks, ${count('passed')} passed, ${count('inconclusive')} inconclusive`);
    });

  program
    .command('merge')
    .description('combine shard reports into one: conformance.json files of `run --shard`, fuzz.json files of `fuzz --shard` (findings deduplicated by bucket)')
    .argument('<reports...>', 'JSON reports of the shards')
    .option('-o, --out <dir>', 'directory for the merged reports', 'reports/merged')
    .option('--junit <file>', JUNIT_HELP)
    .option('-r, --reporter <list>', `comma-separated reporters for run reports: ${REPORTER_NAMES.join(', ')}`, 'junit,json,html')
    .option('--baseline <file>', 'known failing checks, applied to the merged run (default: the baseline the shards were run with, if any)')
    .option('--partial', 'merge the shards that are there when some are missing')
    .exitOverride()
    .action(async (files: string[], opts: { out: string; junit?: string; reporter: string; baseline?: string; partial?: boolean }) => {
      const reporters = parseReporters(opts.reporter);
      // Loaded here, not at start-up: merge is the only report command that reads fuzz reports.
      const { isFuzzReportFile, mergeFuzzReports, readFuzzReport, writeFuzzOutputs } = await import('../../fuzz/core/report.ts');
      await prepareOutputs(opts.out, opts.junit);
      const fuzzFiles: string[] = [];
      const runFiles: string[] = [];
      for (const f of files) ((await isFuzzReportFile(f)) ? fuzzFiles : runFiles).push(f);
      let code: number = EXIT.ok;
      if (runFiles.length) {
        const inputs = await Promise.all(runFiles.map(async (file) => ({ file, report: await readReport(file) })));
        const merged = mergeReports(inputs, { partial: opts.partial });
        // The gate of the merged run is the gate of the shards: the same baseline applies.
        const baseline = opts.baseline ? await loadBaseline(opts.baseline) : carriedBaseline(inputs);
        if (baseline) merged.baseline = applyBaseline(merged, baseline);
        const paths = await writeRunReports(merged, reporters, opts.out, opts.junit, io.out);
        const t = merged.totals;
        io.out(`merged ${runFiles.length} reports: ${totalsLine(t)}`);
        if (merged.baseline) for (const line of baselineLines(merged.baseline)) io.out(line);
        io.out(`reports: ${paths.join(', ')}`);
        code = exitCodeOf(merged);
      }
      if (fuzzFiles.length) {
        const merged = mergeFuzzReports(await Promise.all(fuzzFiles.map(readFuzzReport)));
        const written = await writeFuzzOutputs(opts.out, merged);
        const hits = merged.findings.reduce((n, f) => n + f.hits, 0);
        io.out(`merged ${fuzzFiles.length} fuzz reports (shards ${merged.shards.map((s) => `${s.index}/${s.count}`).join(', ')}): ${merged.cases} cases, ${merged.findings.length} finding bucket(s), ${hits} failing case(s)`);
        for (const { finding, path } of written.findingFiles) io.out(`  bucket ${finding.oracle} [${finding.signature}] x${finding.hits}: npx conformance replay ${path}`);
        io.out(`reports: ${written.junitPath}, ${written.jsonPath}`);
        code = Math.max(code, merged.findings.length ? EXIT.failed : EXIT.ok);
      }
      setExit(code);
    });

  program
    .command('diff')
    .description('compare two JSON reports: checks that regressed, are no longer tested, fail differently, were fixed, appeared or disappeared (exit 1 as --baseline would fail the newer run)')
    .argument('<old>', 'the earlier conformance.json')
    .argument('<new>', 'the later conformance.json')
    .option('--json', 'print the comparison as JSON')
    .option('--failures-only', 'exit 1 on new failures only (as run --baseline-failures-only), not on a passed check now inconclusive or a failure with another message')
    .exitOverride()
    .action(async (older: string, newer: string, opts: { json?: boolean; failuresOnly?: boolean }) => {
      const d = diffReports(await readReport(older), await readReport(newer));
      if (opts.json) io.out(JSON.stringify(d, null, 2));
      else {
        for (const r of d.regressed) io.out(`REGRESSED  ${r.target} ${r.id}: ${r.from} -> ${r.to}${r.message ? ` (${r.message})` : ''}`);
        for (const r of d.fixed) io.out(`FIXED      ${r.target} ${r.id}: ${r.from} -> passed`);
        for (const r of d.unobserved) io.out(`UNTESTED   ${r.target} ${r.id}: passed -> inconclusive${r.message ? ` (${r.message})` : ''}`);
        for (const r of d.changed) io.out(`CHANGED    ${r.target} ${r.id}: ${r.was} -> ${r.now}`);
        for (const r of d.appeared) io.out(`NEW        ${r.target} ${r.id}: ${r.status}`);
        for (const r of d.disappeared) io.out(`GONE       ${r.target} ${r.id} (was ${r.status})`);
        io.out(`${d.regressed.length} regressed, ${d.fixed.length} fixed, ${d.unobserved.length} no longer tested, ${d.changed.length} failing differently, ${d.appeared.length} new, ${d.disappeared.length} gone`);
      }
      setExit(diffGates(d, opts.failuresOnly) ? EXIT.failed : EXIT.ok);
    });
}
