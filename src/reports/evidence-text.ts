// Evidence as plain text (hex dumps and decoded views), for JUnit bodies and the console.
import type { EvidenceItem } from '../core/errors.ts';

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

export function evidenceText(items: readonly EvidenceItem[]): string {
  return items
    .map((e) => {
      const who = e.connection ? `conn ${e.connection} ` : '';
      const head = `[${e.atMs.toFixed(1)} ms] ${who}${e.direction}`;
      if (e.direction === 'note') return `${head}: ${e.text}`;
      const parts = [head + (e.bytes !== undefined ? ` ${e.bytes} bytes${e.truncated ? ' (truncated)' : ''}` : ' (decoded)')];
      if (e.hex) parts.push(hexDump(e.hex));
      if (e.decoded !== undefined) parts.push(`    ${JSON.stringify(e.decoded)}`);
      if (e.text) parts.push(`    ${e.text}`);
      return parts.join('\n');
    })
    .join('\n');
}
