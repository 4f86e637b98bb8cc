// RethinkDB's own ReQL tests (test/data/reql, from rethinkdb/rethinkdb test/rql_test/src, Apache-2.0:
// test/data/reql/COPYRIGHT) against an embedded wire-ref. Each case is translated from its `js`
// (or `cd`) form by test/interop/reql/builder.ts and judged as RethinkDB's driver.js does (error
// classes compared; wording reported only: line 176 leaves it open). Prints agreement per file and
// fails when a file's agreement drops below the floor measured after the triage of issue 31
// (docs/wire-differences.md). Details: `npx jiti test/interop/reql/runner.ts [file] [-v]`.
import { describe, expect, it } from 'vitest';
import { figures, listFiles, runFile, type FileFigures } from './reql/runner.ts';

/** Cases each file agreed on after the triage of issue 31 (measured 2026-11-26: 2193 of 2283, 96.1 %), minus one for random and timing cases. */
const FLOORS: Record<string, number> = {
  'aggregation.yaml': 111,
  'arity.yaml': 105,
  'control.yaml': 57,
  'datum/array.yaml': 50,
  'datum/binary.yaml': 61,
  'datum/bool.yaml': 13,
  'datum/null.yaml': 4,
  'datum/number.yaml': 21,
  'datum/object.yaml': 18,
  'datum/string.yaml': 99,
  'datum/typeof.yaml': 2,
  'datum/uuid.yaml': 4,
  'default.yaml': 58,
  'format.yaml': 0,
  'geo/constructors.yaml': 26,
  'geo/geojson.yaml': 11,
  'geo/indexing.yaml': 37,
  'geo/intersection_inclusion.yaml': 38,
  'geo/operations.yaml': 21,
  'geo/primitives.yaml': 2,
  'joins.yaml': 13,
  'json.yaml': 19,
  'limits.yaml': 17,
  'match.yaml': 9,
  'math_logic/add.yaml': 11,
  'math_logic/aliases.yaml': 27,
  'math_logic/bit.yaml': 40,
  'math_logic/comparison.yaml': 92,
  'math_logic/div.yaml': 11,
  'math_logic/floor_ceil_round.yaml': 47,
  'math_logic/logic.yaml': 28,
  'math_logic/math.yaml': 0,
  'math_logic/mod.yaml': 4,
  'math_logic/mul.yaml': 7,
  'math_logic/sub.yaml': 6,
  'meta/composite.py.yaml': 0,
  'meta/dbs.yaml': 8,
  'meta/grant.yaml': 23,
  'meta/table.yaml': 78,
  'mutation/atomic_get_set.yaml': 14,
  'mutation/delete.yaml': 6,
  'mutation/insert.yaml': 37,
  'mutation/replace.yaml': 15,
  'mutation/sync.yaml': 12,
  'mutation/update.yaml': 33,
  'mutation/write_hook.yaml': 7,
  'polymorphism.yaml': 6,
  'random.yaml': 27,
  'range.yaml': 16,
  'selection.yaml': 74,
  'sindex/api.yaml': 309,
  'sindex/nullsinstrings.yaml': 4,
  'sindex/status.yaml': 13,
  'sindex/trunc_array.rb.yaml': 0,
  'sindex/truncation.rb.yaml': 0,
  'timeout.yaml': 5,
  'times/api.yaml': 40,
  'times/constructors.yaml': 14,
  'times/index.yaml': 25,
  'times/portions.yaml': 6,
  'times/shim.yaml': 3,
  'times/time_arith.yaml': 6,
  'times/timezones.yaml': 16,
  'transform/array.yaml': 70,
  'transform/fold.yaml': 4,
  'transform/map.yaml': 18,
  'transform/object.yaml': 40,
  'transform/table.yaml': 3,
  'transform/unordered_map.yaml': 8,
  'transformation.yaml': 118,
  // Changefeeds, measured 2026-11-26 (26 of 77): counted apart from the 95 % above, as their
  // disagreements are wire-ref's missing feed features listed in docs/wire-differences.md.
  'changefeeds/edge.yaml': 1,
  'changefeeds/geo.rb.yaml': 0,
  'changefeeds/idxcopy.yaml': 2,
  'changefeeds/include_states.yaml': 2,
  'changefeeds/point.yaml': 6,
  'changefeeds/sindex.yaml': 0,
  'changefeeds/squash.yaml': 2,
  'changefeeds/table.yaml': 7,
};

describe('RethinkDB ReQL tests against wire-ref', () => {
  it('agree at least as often as after the triage, file by file', async () => {
    const rows: FileFigures[] = [];
    for (const file of listFiles()) rows.push(figures(await runFile(file)));
    const isFeed = (r: FileFigures) => r.file.startsWith('changefeeds/');
    const agree = rows.filter((r) => !isFeed(r)).reduce((n, r) => n + r.agree, 0);
    const judged = rows.filter((r) => !isFeed(r)).reduce((n, r) => n + r.judged, 0);
    const feedAgree = rows.filter(isFeed).reduce((n, r) => n + r.agree, 0);
    const feedJudged = rows.filter(isFeed).reduce((n, r) => n + r.judged, 0);
    const pct = (a: number, n: number) => (n ? `${((100 * a) / n).toFixed(1)}%` : '-').padStart(6);
    console.log(
      [
        ...rows.map((r) => `${r.file.padEnd(36)} ${String(r.agree).padStart(4)}/${String(r.judged).padEnd(4)} ${pct(r.agree, r.judged)}  document ${r.document} untranslatable ${r.untranslatable} driver-only ${r.driverOnly} wording ${r.wordingDiffers}`),
        `TOTAL agreement ${agree}/${judged} (${pct(agree, judged).trim()}) of the cases the harness translates (listed document differences left out), changefeeds apart`,
        `CHANGEFEEDS agreement ${feedAgree}/${feedJudged} (${pct(feedAgree, feedJudged).trim()}): wire-ref's missing feed features, docs/wire-differences.md`,
      ].join('\n'),
    );
    const below = rows.filter((r) => r.agree < (FLOORS[r.file] ?? 0)).map((r) => `${r.file}: ${r.agree} < ${FLOORS[r.file]}`);
    expect(below).toEqual([]);
    // Issue 31's target: at least 95 % of the translated cases agree (changefeeds are held by their floors).
    expect(agree / judged).toBeGreaterThanOrEqual(0.95);
    expect(rows.map((r) => r.file).sort()).toEqual(Object.keys(FLOORS).sort());
  }, 120_000);
});
