// Every check of a reviewed protocol has a row in docs/review/<protocol>.md (issue: every check
// reviewed against the rubric by a reviewer who did not write it): its class, what changed, and
// the proof (variant choice or fault) that now guards it. A check added later needs its row.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Protocol } from '../../src/core/check.ts';
import { loadChecks } from '../../src/core/registry.ts';

const REVIEWED: Protocol[] = ['wire', 'cloud', 'build'];
const CLASSES = ['SOUND', 'OVER-ASSERTS', 'UNDER-ASSERTS', 'VACUOUS', 'WRONG LEVEL', 'MISCITED'];

describe.each(REVIEWED)('docs/review/%s.md', (protocol) => {
  const text = readFileSync(new URL(`../../docs/review/${protocol}.md`, import.meta.url), 'utf8');
  const rows = new Map<string, string>();
  for (const line of text.split('\n')) {
    const m = /^\|\s*`?([a-z0-9._-]+)`?\s*\|\s*([^|]+?)\s*\|/.exec(line);
    if (m && m[1].startsWith(`${protocol}.`)) rows.set(m[1], m[2]);
  }

  it('has a row, with a rubric class, for every registered check', async () => {
    const checks = await loadChecks([protocol]);
    expect(checks.filter((c) => !rows.has(c.id)).map((c) => c.id)).toEqual([]);
    for (const c of checks) expect(CLASSES.some((k) => rows.get(c.id)!.toUpperCase().includes(k)), `${c.id}: ${rows.get(c.id)}`).toBe(true);
  });
});
