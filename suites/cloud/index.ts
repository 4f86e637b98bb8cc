// The CLOUD suite: one file per document section (../shared/spec/cloud-api.md),
// listed here. No check has landed yet.
import type { Check } from '../../src/core/check.ts';

export const checks: Check[] = [];
