// Evidence as plain text (hex dumps and decoded views), for JUnit bodies and the console.
import type { EvidenceItem, HttpExchangeEvidence } from '../core/errors.ts';

export function hexDump(hex: string, indent = '    '): string {
  const lines: string[] = [];
  for (let off = 0; off < hex.length; off += 32) {
    const row = hex.slice(off, off + 32);
    const bytes = row.match(/../g) ?? [];
    const ascii = bytes.map((b) => {
      const c = parseInt(b, 16);
      return c >= 0x20 && c < 0x7f ? String.fromCharCode(c) : '.';
    });
    lines.push(`${indent}${(off / 2).toString(16).padStart(6, '0')}  ${bytes.join(' ').padEnd(47)}  ${ascii.join('')}`);
  }
  return lines.join('\n');
}

/** An HTTP exchange as a reader reproduces it: request, response, and the curl command. */
export function httpExchangeText(x: HttpExchangeEvidence, indent = '    '): string {
  const lines = [`${x.request.method} ${x.request.url}`];
  for (const [k, v] of Object.entries(x.request.headers)) lines.push(`${k}: ${v}`);
  if (x.request.body !== undefined) lines.push('', x.request.body);
  lines.push('');
  if (x.response) {
    lines.push(`HTTP ${x.response.status} (${x.durationMs} ms)`);
    for (const [k, v] of Object.entries(x.response.headers)) lines.push(`${k}: ${v}`);
    if (x.response.body) lines.push('', x.response.body + (x.response.truncated ? ` … (${x.response.bodyBytes} bytes in all)` : ''));
  } else {
    lines.push(`no response: ${x.error ?? 'unknown'} (${x.durationMs} ms)`);
  }
  lines.push('', `reproduce: ${x.curl}`);
  return lines.map((l) => (l ? indent + l : '')).join('\n');
}

export function evidenceText(items: readonly EvidenceItem[]): string {
  return items
    .map((e) => {
      const who = e.connection ? `conn ${e.connection} ` : '';
      const head = `[${e.atMs.toFixed(1)} ms] ${who}${e.direction}`;
      if (e.direction === 'note') return `${head}: ${e.text}`;
      if (e.http) return `${head}\n${httpExchangeText(e.http)}`;
      const parts = [head + (e.bytes !== undefined ? ` ${e.bytes} bytes${e.truncated ? ' (truncated)' : ''}` : ' (decoded)')];
      if (e.hex) parts.push(hexDump(e.hex));
      if (e.decoded !== undefined) parts.push(`    ${JSON.stringify(e.decoded)}`);
      if (e.text) parts.push(`    ${e.text}`);
      return parts.join('\n');
    })
    .join('\n');
}
