// How test/interop/obs-recordings.test.ts replays OBS 2.9.4's own API tests
// (src/api/test/functional/*.rb, extracted to test/data/obs-2.9/api-tests.json): which requests can
// be sent as they stand (a literal path, literal parameters), who sends them, and what the test
// asserted of the answer (its status; the element and attribute names of its assert_xml_tag).

export interface ApiRequest {
  line: number;
  test: string;
  /** The user the test logged in as last (`login_king`, `prepare_request_with_user "tom", ...`), or null. */
  login: string | null;
  method: string;
  path: string;
  /** The rest of the Ruby call after the path (`params: {...}` or a body), cut at 200 characters. */
  args: string;
  /** What assert_response asserted first after the request: `:success`, `404`, ... */
  status: string | null;
  /** The arguments of each assert_xml_tag that followed. */
  xml: string[];
}
export interface ApiTests {
  files: Record<string, ApiRequest[]>;
}

const SYMBOLS: Record<string, number> = { success: 200, ok: 200, missing: 404, not_found: 404, forbidden: 403, unauthorized: 401, bad_request: 400, redirect: 302 };

/** The status the test asserted, as a number (`:success` 200, `:missing` 404, ...). */
export function assertedStatus(s: string | null): number | undefined {
  if (s === null) return undefined;
  if (/^\d+$/.test(s)) return Number(s);
  return SYMBOLS[s.replace(/^:/, '')];
}

/** A Ruby literal: 'text', "text" (no interpolation), :symbol, a number, true/false. */
function literal(v: string): string | undefined {
  const t = v.trim();
  let m = /^'((?:[^'\\]|\\.)*)'$/.exec(t);
  if (m) return m[1].replace(/\\(['\\])/g, '$1');
  m = /^"((?:[^"\\#]|\\.|#(?!\{))*)"$/.exec(t);
  if (m) return m[1].replace(/\\n/g, '\n').replace(/\\(["\\])/g, '$1');
  m = /^:(\w+)$/.exec(t);
  if (m) return m[1];
  if (/^-?\d+$|^true$|^false$/.test(t)) return t;
  return undefined;
}

/** Splits `a: 1, b: 'x, y'` at the commas outside quotes and brackets. */
function splitTop(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let quote = '';
  let cur = '';
  for (const ch of s) {
    if (quote) {
      if (ch === quote) quote = '';
    } else if (ch === "'" || ch === '"') quote = ch;
    else if ('([{'.includes(ch)) depth++;
    else if (')]}'.includes(ch)) depth--;
    else if (ch === ',' && depth === 0) {
      out.push(cur);
      cur = '';
      continue;
    }
    cur += ch;
  }
  if (cur.trim()) out.push(cur);
  return out;
}

/**
 * The request as it can be sent: path and query, and a body; undefined when the Ruby call holds
 * anything but literals (an interpolated path, a variable, a helper's answer).
 */
export function replayable(r: ApiRequest): { url: string; body?: string } | undefined {
  if (r.path.includes('#{') || r.args.length >= 200) return undefined;
  const args = r.args.trim();
  if (args === '') return { url: r.path };
  const hash = /^params:\s*\{(.*)\}$/.exec(args);
  if (hash) {
    const query = new URLSearchParams();
    for (const pair of splitTop(hash[1])) {
      const m = /^\s*(?::?(\w+):|['"]?(\w+)['"]?\s*=>)\s*(.*)$/.exec(pair);
      const value = m ? literal(m[3]) : undefined;
      if (!m || value === undefined) return undefined;
      query.append(m[1] ?? m[2], value);
    }
    const qs = query.toString();
    // A POST or PUT of a form goes as its body in Rails; build-ref, as the service's clients do, reads the query.
    return { url: `${r.path}${qs ? `${r.path.includes('?') ? '&' : '?'}${qs}` : ''}` };
  }
  const body = /^params:\s*(.*)$/.exec(args);
  if (body && (r.method === 'PUT' || r.method === 'POST')) {
    const text = literal(body[1]);
    return text === undefined ? undefined : { url: r.path, body: text };
  }
  return undefined;
}

/**
 * The element names and `element@attribute` names an assert_xml_tag names (`tag: 'x'`,
 * `attributes: { name: ... }`), without the values: those depend on the tests' fixtures.
 */
export function namesOf(assertion: string): string[] {
  const out: string[] = [];
  const re = /tag:\s*['"]([\w:-]+)['"](\s*,\s*attributes:\s*\{([^}]*)\})?/g;
  for (const m of assertion.matchAll(re)) {
    out.push(m[1]);
    if (m[3]) for (const pair of splitTop(m[3])) {
      const k = /^\s*(?::?([\w-]+):|['"]([\w-]+)['"]\s*=>)/.exec(pair);
      if (k) out.push(`${m[1]}@${k[1] ?? k[2]}`);
    }
  }
  return out;
}

/** The status code an assert_xml_tag asserts of a <status> answer (`tag: 'status', attributes: { code: 'x' }`). */
export function errorCodeOf(assertion: string): string | undefined {
  return /tag:\s*['"]status['"]\s*,\s*attributes:\s*\{\s*(?::?code:|['"]code['"]\s*=>)\s*['"]([\w-]+)['"]/.exec(assertion)?.[1];
}

/** Every element name and `element@attribute` of an XML text (a quick scan: names only). */
export function namesIn(text: string): Set<string> {
  const out = new Set<string>();
  for (const m of text.matchAll(/<([A-Za-z_][\w:.-]*)((?:\s+[\w:.-]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*\/?>/g)) {
    out.add(m[1]);
    for (const a of m[2].matchAll(/([\w:.-]+)\s*=/g)) out.add(`${m[1]}@${a[1]}`);
  }
  return out;
}

/**
 * The kind of a refusal, from its <status code>: OBS's (unknown_project, cmd_execution_no_permission,
 * missing_parameter, ...) and build-ref's (not_found, modify_project_no_permission, ...) alike.
 * Two refusals are compared only when they are of the same kind: with other fixtures, the same
 * request is often refused for another reason (a project OBS's fixtures hold and build-ref's not).
 */
export function kindOf(code: string | undefined): 'missing' | 'permission' | 'authentication' | 'request' | undefined {
  if (!code) return undefined;
  if (code === 'authentication_required' || code === 'invalid_token') return 'authentication';
  if (/no_permission|permission_denied|forbidden|^user_locked$/.test(code)) return 'permission';
  if (/^unknown_(project|package|repository|architecture|user|group|attribute|issue|tracker|distribution|request|worker)|^not_found$|^no_such|_not_found$|^not_existing/.test(code)) return 'missing';
  if (/^missing_|^invalid_|^illegal_|^unknown_command$|^empty_match$|^wrong_|^bad_|^validation_failed$/.test(code)) return 'request';
  return undefined;
}
