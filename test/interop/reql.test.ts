// RethinkDB's own ReQL tests (test/data/reql, from rethinkdb/rethinkdb test/rql_test/src, Apache-2.0:
// test/data/reql/COPYRIGHT) against an embedded wire-ref. Each case is translated from its `js`
// (or `cd`) form by test/interop/reql/builder.ts and judged as RethinkDB's driver.js does (error
// classes compared; wording reported only: line 176 leaves it open). Prints agreement per file and
// fails when a file's agreement drops below the floor measured after the triage of issue 31
// (docs/wire-differences.md). Details: `npx jiti test/interop/reql/runner.ts [file] [-v]`.
import { describe, expect, it } from 'vitest';
import { figures, listFiles, runFile, type FileFigures } from './reql/runner.ts';

/** Cases each file agreed on after the triage (measured 2026-11-26), minus one for random and timing cases. */
const FLOORS: Record<string, number> = {
  'aggregation.yaml': 66,
  'arity.yaml': 100,
  'control.yaml': 46,
  'datum/array.yaml': 38,
  'datum/binary.yaml': 31,
  'datum/bool.yaml': 13,
  'datum/null.yaml': 4,
  'datum/number.yaml': 21,
  'datum/object.yaml': 18,
  'datum/string.yaml': 99,
  'datum/typeof.yaml': 2,
  'datum/uuid.yaml': 4,
  'default.yaml': 40,
  'format.yaml': 0,
  'geo/constructors.yaml': 24,
  'geo/geojson.yaml': 4,
  'geo/indexing.yaml': 24,
  'geo/intersection_inclusion.yaml': 38,
  'geo/operations.yaml': 15,
  'geo/primitives.yaml': 0,
  'joins.yaml': 13,
  'json.yaml': 16,
  'limits.yaml': 10,
  'match.yaml': 9,
  'math_logic/add.yaml': 11,
  'math_logic/aliases.yaml': 27,
  'math_logic/bit.yaml': 17,
  'math_logic/comparison.yaml': 92,
  'math_logic/div.yaml': 11,
  'math_logic/floor_ceil_round.yaml': 47,
  'math_logic/logic.yaml': 28,
  'math_logic/math.yaml': 0,
  'math_logic/mod.yaml': 4,
  'math_logic/mul.yaml': 7,
  'math_logic/sub.yaml': 6,
  'meta/composite.py.yaml': 0,
  'meta/dbs.yaml': 7,
  'meta/grant.yaml': 7,
  'meta/table.yaml': 56,
  'mutation/atomic_get_set.yaml': 0,
  'mutation/delete.yaml': 6,
  'mutation/insert.yaml': 31,
  'mutation/replace.yaml': 11,
  'mutation/sync.yaml': 12,
  'mutation/update.yaml': 31,
  'mutation/write_hook.yaml': 7,
  'polymorphism.yaml': 6,
  'random.yaml': 26,
  'range.yaml': 14,
  'selection.yaml': 49,
  'sindex/api.yaml': 291,
  'sindex/nullsinstrings.yaml': 4,
  'sindex/status.yaml': 13,
  'sindex/trunc_array.rb.yaml': 0,
  'sindex/truncation.rb.yaml': 0,
  'timeout.yaml': 5,
  'times/api.yaml': 30,
  'times/constructors.yaml': 6,
  'times/index.yaml': 16,
  'times/portions.yaml': 6,
  'times/shim.yaml': 2,
  'times/time_arith.yaml': 5,
  'times/timezones.yaml': 11,
  'transform/array.yaml': 65,
  'transform/fold.yaml': 3,
  'transform/map.yaml': 12,
  'transform/object.yaml': 36,
  'transform/table.yaml': 3,
  'transform/unordered_map.yaml': 2,
  'transformation.yaml': 102,
};

describe('RethinkDB ReQL tests against wire-ref', () => {
  it('agree at least as often as after the triage, file by file', async () => {
    const rows: FileFigures[] = [];
    for (const file of listFiles()) rows.push(figures(await runFile(file)));
    const agree = rows.reduce((n, r) => n + r.agree, 0);
    const judged = rows.reduce((n, r) => n + r.judged, 0);
    console.log(
      [
        ...rows.map((r) => `${r.file.padEnd(36)} ${String(r.agree).padStart(4)}/${String(r.judged).padEnd(4)} document ${r.document} untranslatable ${r.untranslatable} driver-only ${r.driverOnly} wording ${r.wordingDiffers}`),
        `TOTAL ${agree}/${judged} (${((100 * agree) / judged).toFixed(1)}%)`,
      ].join('\n'),
    );
    const below = rows.filter((r) => r.agree < (FLOORS[r.file] ?? 0)).map((r) => `${r.file}: ${r.agree} < ${FLOORS[r.file]}`);
    expect(below).toEqual([]);
    expect(rows.map((r) => r.file).sort()).toEqual(Object.keys(FLOORS).sort());
  }, 120_000);
});
