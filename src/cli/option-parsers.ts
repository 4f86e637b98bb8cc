// Parsers of option values shared by the commands; a bad value becomes commander's
// InvalidArgumentError, reported as a usage error (exit 2) naming the option.
import { InvalidArgumentError } from 'commander';

export function integer(min: number, max = Number.MAX_SAFE_INTEGER) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < min || n > max) throw new InvalidArgumentError(`expected an integer from ${min} to ${max}.`);
    return n;
  };
}

/** `--shard i/n`: the i-th of n shares, 1-based. */
export function shardSpec(value: string): { index: number; count: number } {
  const m = /^(\d+)\/(\d+)$/.exec(value);
  const index = Number(m?.[1]);
  const count = Number(m?.[2]);
  if (!m || count < 1 || index < 1 || index > count) throw new InvalidArgumentError('expected i/n with 1 <= i <= n, e.g. 2/4.');
  return { index, count };
}

/** `90s`, `10m`, `1h`, `500ms` or a bare number of seconds, in milliseconds. */
export function parseDuration(value: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(value.trim());
  if (!m || Number(m[1]) <= 0) throw new InvalidArgumentError('expected a duration such as 90s, 10m or 1h.');
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[(m[2] ?? 's') as 'ms' | 's' | 'm' | 'h'];
  return Math.round(Number(m[1]) * unit);
}
