// Finding files: one JSON file per bucket (oracle + response signature) under <out>/findings/,
// holding the shrunk case's exact bytes, what came back, and the seed and path that regenerate it.
import { createHash } from 'node:crypto';
import { readJsonFile } from '../../src/reports/read.ts';
import { join } from 'node:path';
import { UsageError } from '../../src/core/errors.ts';
import { writeFileAtomic } from '../../src/reports/write.ts';
import { deepClean, messageText, type Redactor } from '../../src/reports/boundary.ts';
import type { Violation } from './kind.ts';
import type { FuzzRule } from './rules.ts';

export const FINDING_FORMAT = 'conformance-finding/1';

export interface Finding {
  format: typeof FINDING_FORMAT;
  id: string;
  bucket: string;
  kind: string;
  oracle: string;
  /**
   * What the oracle enforces (fuzz/core/rules.ts): a document rule (file, line, quote, level) or
   * robustness (a hang, a dead server, a 5xx), never reported as a deviation from the document.
   */
  rule?: FuzzRule;
  message: string;
  signature: string;
  violations: Violation[];
  /** fast-check seed and path of the (shrunk) case: fc.check(prop, { seed, path }) regenerates it. */
  seed?: number;
  path?: string;
  campaign: { seed: number; chunk?: number; index?: number; source: 'generated' | 'corpus' };
  shrunk: boolean;
  /** False when the case failed on a shared connection but not on a fresh one of its own. */
  reproducedAlone: boolean;
  /** How many failing cases of the campaign fell into this bucket. */
  hits: number;
  /**
   * The variety of the bucket's hits: one example per distinct detail (the route, the frames
   * around the one that failed), with its message, hit count and place in the campaign.
   */
  examples?: { detail: string; message: string; hits: number; chunk?: number; index?: number }[];
  case: unknown;
  /**
   * A target that died after a run of cases: every case since its last live check, in the order
   * they were sent (`case` is the last). `replay` sends them in this order.
   */
  sequence?: { kind: string; case: unknown }[];
  decoded: unknown;
  received: unknown;
  tool: { name: string; version: string };
  target: { name: string; address: string; embedded: boolean; faults: readonly string[] };
  foundAt: string;
}

export function bucketOf(v: Violation): string {
  return `${v.oracle}|${v.signature}`;
}

export function bucketId(bucket: string): string {
  return createHash('sha256').update(bucket).digest('hex').slice(0, 12);
}

export function findingPath(outDir: string, f: Pick<Finding, 'oracle' | 'id'>): string {
  return join(outDir, 'findings', `${f.oracle}-${f.id}.json`);
}

/**
 * A finding as it may be written or shown: what the target sent (messages, signatures, responses,
 * decoded views) through the report boundary. The case's own bytes stay exact for `replay`; a
 * handshake's key in them is masked where the case is made.
 */
export function cleanFinding(f: Finding, redactor: Redactor): Finding {
  const text = (s: string) => messageText(s, redactor);
  return {
    ...f,
    message: text(f.message),
    signature: text(f.signature),
    bucket: text(f.bucket),
    violations: f.violations.map((v) => ({ ...v, message: text(v.message), signature: text(v.signature), ...(v.detail === undefined ? {} : { detail: text(v.detail) }) })),
    ...(f.examples ? { examples: f.examples.map((e) => ({ ...e, detail: text(e.detail), message: text(e.message) })) } : {}),
    decoded: deepClean(f.decoded, redactor),
    received: deepClean(f.received, redactor),
  };
}

export async function writeFinding(outDir: string, f: Finding): Promise<string> {
  const path = findingPath(outDir, f);
  await writeFileAtomic(path, `${JSON.stringify(f, null, 2)}\n`);
  return path;
}

export async function readFinding(path: string): Promise<Finding> {
  const data = await readJsonFile(path, 'finding file');
  const f = data as Partial<Finding>;
  if (f?.format !== FINDING_FORMAT || typeof f.kind !== 'string' || !f.case) {
    throw new UsageError(`${path}: not a finding file of format ${FINDING_FORMAT}`);
  }
  return f as Finding;
}
