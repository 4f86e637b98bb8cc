// A saved corpus: cases whose responses took a shape not seen before, one JSON file each, run
// first by later campaigns given the same --corpus directory.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../../src/reports/write.ts';

export interface CorpusEntry {
  kind: string;
  shape: string;
  case: unknown;
}

export async function loadCorpus(dir: string, kinds: readonly string[]): Promise<{ file: string; entry: CorpusEntry }[]> {
  if (!existsSync(dir)) return [];
  const out: { file: string; entry: CorpusEntry }[] = [];
  for (const name of (await readdir(dir)).filter((n) => n.endsWith('.json')).sort()) {
    try {
      const entry = JSON.parse(await readFile(join(dir, name), 'utf8')) as CorpusEntry;
      if (kinds.includes(entry.kind) && entry.case) out.push({ file: join(dir, name), entry });
    } catch {
      // a damaged entry is skipped, not fatal: the corpus is an optimisation
    }
  }
  return out;
}

export async function saveCorpusEntry(dir: string, entry: CorpusEntry): Promise<string> {
  const id = createHash('sha256').update(`${entry.kind}|${JSON.stringify(entry.case)}`).digest('hex').slice(0, 16);
  const file = join(dir, `${entry.kind}-${id}.json`);
  if (!existsSync(file)) await writeFileAtomic(file, `${JSON.stringify(entry)}\n`);
  return file;
}
