// Short texts about outcomes for the console and the reports: skips summarised by reason, and
// the one line that shows a failure's exchange (a curl command; WIRE: the query that was sent).
import type { CheckResult } from '../core/result.ts';
import { visible } from './boundary.ts';

/** `tagged destructive: …` -> `need allow destructive`; `needs tokens.otherAccount (…)` -> `need tokens.otherAccount`. */
export function skipReason(message: string | undefined): string {
  const m = message ?? 'no reason given';
  const tagged = /^tagged (\S+?):/.exec(m);
  if (tagged) return `need allow ${tagged[1]}`;
  const needs = /^needs ([^\s:(),]+)/.exec(m);
  if (needs) return `need ${needs[1]}`;
  if (/^not finished:/.test(m)) return 'not run after --bail';
  if (/^interrupted:/.test(m)) return 'interrupted';
  const head = m.split(/[:(]/)[0].trim();
  return head.length > 60 ? `${head.slice(0, 57)}...` : head;
}

/** `56 skipped: 38 need allow destructive, 9 need tokens.otherAccount`, or '' when nothing was skipped. */
export function skipSummary(results: readonly CheckResult[]): string {
  const skipped = results.filter((r) => r.status === 'skipped');
  if (!skipped.length) return '';
  const by = new Map<string, number>();
  for (const r of skipped) {
    const k = skipReason(r.message);
    by.set(k, (by.get(k) ?? 0) + 1);
  }
  const parts = [...by].sort((a, b) => b[1] - a[1]).map(([k, n]) => `${n} ${k}`);
  return `${skipped.length} skipped: ${parts.join(', ')}`;
}

/**
 * The exchange a failure shows, on one line: the curl command of the last HTTP exchange before
 * the check ended (the one its assertion read), or for WIRE the last query sent, decoded.
 */
export function firstExchangeLine(r: CheckResult): string | undefined {
  // The exchange the message names (checks name the request they judge: "POST /v4/account/…"),
  // else the last one: a check's clean-up requests come after the exchange that failed it.
  const exchanges = [...r.evidence].reverse().filter((e) => e.http);
  const named = exchanges.find((e) => {
    let path: string;
    try {
      path = new URL(e.http!.request.url).pathname;
    } catch {
      return false;
    }
    return (r.message ?? '').includes(`${e.http!.request.method} ${path}`);
  });
  const http = named ?? exchanges[0];
  if (http?.http) return `curl: ${visible(http.http.curl)}`;
  const sent = [...r.evidence].reverse().find((e) => e.direction === 'sent' && e.decoded !== undefined);
  if (sent) {
    const text = JSON.stringify(sent.decoded);
    return `sent${sent.connection ? ` (conn ${sent.connection})` : ''}: ${visible(text.length > 300 ? `${text.slice(0, 297)}...` : text)}`;
  }
  return undefined;
}
