// Reading a JSON file a user named (a report, a finding): one usage error for a missing or
// unparsable file, naming the file and what it was expected to be.
import { readFile } from 'node:fs/promises';
import { UsageError } from '../core/errors.ts';

export async function readJsonFile(file: string, what: string): Promise<unknown> {
  try {
    return JSON.parse(await readFile(file, 'utf8'));
  } catch (err) {
    throw new UsageError(`${file}: not a readable ${what} (${(err as Error).message.split('\n')[0]})`);
  }
}
