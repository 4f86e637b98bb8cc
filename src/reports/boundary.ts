// The one boundary for target text. Every byte a target sends is data: before it reaches a
// result (and from there the console, a report, a CI log) it is redacted of every configured
// secret in every form the tool or the target may have derived from it, shown visibly where it
// holds control characters, and cut to a size a report can hold. Each format then escapes it
// for itself (xml.ts for JUnit, html.ts, markdown.ts, the console) from here.
import type { EvidenceItem } from '../core/errors.ts';
import type { CheckResult } from '../core/result.ts';

/** Caps in characters; what is cut is said in place (`… [cut: 12,345 more characters]`). */
export const TEXT_CAPS = {
  /** A result's message and each note: one line a person reads. */
  message: 4000,
  /** Each string inside an evidence item (bodies, decoded views, curl lines); hex is bounded by bytes. */
  evidenceString: 16 * 1024,
  /** All evidence of one result, as JSON characters: later items past it are dropped, and counted. */
  evidencePerResult: 64 * 1024,
} as const;

const REDACTED = '[redacted]';
/** Shorter secrets are not searched for: a 2-character "secret" would redact half of every body. */
const MIN_SECRET_CHARS = 3;

/**
 * The forms in which a secret can come back: raw, base64 and base64url (a Basic credential is
 * base64 of `user:password`, so pass that pair as a secret of its own), URL-encoded, hex, and
 * escaped for XML/HTML and JSON. The target may echo any of them; the tool writes some itself.
 */
export function secretForms(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  const b64 = bytes.toString('base64');
  const forms = [
    secret,
    b64,
    b64.replace(/=+$/, ''),
    bytes.toString('base64url'),
    encodeURIComponent(secret),
    encodeURIComponent(secret).replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()),
    bytes.toString('hex'),
    bytes.toString('hex').toUpperCase(),
    secret.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!),
    secret.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`),
    JSON.stringify(secret).slice(1, -1),
  ];
  return [...new Set(forms)].filter((f) => f.length >= MIN_SECRET_CHARS);
}

export class Redactor {
  private readonly forms: string[];

  constructor(secrets: readonly (string | undefined)[]) {
    const all = secrets.filter((s): s is string => typeof s === 'string' && s.length >= MIN_SECRET_CHARS).flatMap(secretForms);
    // Longest first: a Basic credential's base64 goes before the password inside it.
    this.forms = [...new Set(all)].sort((a, b) => b.length - a.length);
  }

  get empty(): boolean {
    return this.forms.length === 0;
  }

  redact(text: string): string {
    let out = text;
    for (const f of this.forms) if (out.includes(f)) out = out.split(f).join(REDACTED);
    return out;
  }
}

/**
 * Control characters (C0, DEL, C1), Unicode line and paragraph separators and bidirectional
 * overrides shown as escapes: `\n`, `\x1b`, `\u202e`. What a terminal, a CI log parser or a
 * reader's eye would act on becomes plain text; everything else is left as it came.
 */
export function visible(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, (c) => {
    const code = c.charCodeAt(0);
    if (c === '\n') return '\\n';
    if (c === '\r') return '\\r';
    if (c === '\t') return '\\t';
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}

/** `text` cut to `max` characters, saying how much was cut; never splits a surrogate pair. */
export function cap(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  return `${text.slice(0, end)}… [cut: ${(text.length - end).toLocaleString('en-US')} more characters]`;
}

/** A message or a note: redacted, one visible line, capped. */
export function messageText(text: string, redactor: Redactor): string {
  return cap(visible(redactor.redact(text)), TEXT_CAPS.message);
}

/** Every string inside a value (evidence, a finding's responses), redacted and capped; the shape is kept. */
export function deepClean(value: unknown, redactor: Redactor, depth = 0): unknown {
  if (typeof value === 'string') return cap(redactor.redact(value), TEXT_CAPS.evidenceString);
  if (value === null || typeof value !== 'object') return value;
  // Decoded views are the tool's own structures, but their depth follows the target's data.
  if (depth > 32) return '[nested too deep to show]';
  if (Array.isArray(value)) {
    const items = value.slice(0, 1000).map((v) => deepClean(v, redactor, depth + 1));
    return value.length > 1000 ? [...items, `[cut: ${value.length - 1000} more items]`] : items;
  }
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[redactor.redact(k)] = deepClean(v, redactor, depth + 1);
  return out;
}

/** A result as it may leave the runner: every target-supplied text through the boundary. */
export function cleanResult(r: CheckResult, redactor: Redactor): CheckResult {
  return {
    ...r,
    ...(r.message === undefined ? {} : { message: messageText(r.message, redactor) }),
    ...(r.notes ? { notes: r.notes.map((n) => messageText(n, redactor)) } : {}),
    evidence: capEvidence(r.evidence.map((e) => deepClean(e, redactor) as EvidenceItem)),
  };
}

/** Keeps evidence items in order while they fit the per-result budget; says how many were cut. */
function capEvidence(items: EvidenceItem[]): EvidenceItem[] {
  let used = 0;
  const kept: EvidenceItem[] = [];
  for (const item of items) {
    used += JSON.stringify(item).length;
    if (used > TEXT_CAPS.evidencePerResult) {
      const cut = items.length - kept.length;
      kept.push({ direction: 'note', atMs: item.atMs, text: `[cut: ${cut} more evidence items, over ${TEXT_CAPS.evidencePerResult.toLocaleString('en-US')} characters of evidence]` });
      break;
    }
    kept.push(item);
  }
  return kept;
}

/**
 * Inline markdown (PR comments, the GitHub step summary): HTML specials as entities and markdown
 * punctuation backslash-escaped, so target text cannot open a tag, a link, an image, a heading
 * or a table cell. Expects one line (`visible` output).
 */
export function markdownInline(text: string): string {
  return text.replace(/[&<>]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : '&gt;')).replace(/[\\`*_{}[\]()#!|~]/g, (c) => `\\${c}`);
}
