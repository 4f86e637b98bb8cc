// The package's public API: what targets.config.ts and programmatic users import.
export { defineConfig } from './config/types.ts';
export type { ConformanceConfig, TargetConfig, WireTargetConfig } from './config/types.ts';
export type { Check, CheckMeta, CheckContext, WireCheckContext, Level, Protocol } from './core/check.ts';
export type { CheckResult, CheckStatus } from './core/result.ts';
