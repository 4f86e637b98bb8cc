// The triage of cases wire-ref answers otherwise than RethinkDB's tests expect
// (docs/wire-differences.md lists them with the document's line).
export interface Triage {
  /** document: the document states otherwise, and wire-ref keeps the document's behaviour. */
  kind: 'document';
  line: number;
  why: string;
}

/** Files not run, with the reason. */
export const SKIPPED_FILES: Record<string, string> = {};

/** Document differences recognised by the query (the JS or cd form of the case) and wire-ref's answer. */
const RULES: { test: (query: string, got: string) => boolean; triage: Triage }[] = [
  {
    test: (q, g) => /\bbranch\(/.test(q) && /BRANCH|Expected type BOOL/.test(g),
    triage: { kind: 'document', line: 146, why: '`BRANCH=65: BOOL, Top, Top -> Top`: three arguments and a BOOL test (RethinkDB takes pairs and truthiness)' },
  },
  {
    test: (q, g) => /(\.not\(|r\.not\(|\.not_\(|~r|r\.expr\(\w+\)\.not)/.test(q) && /Expected type BOOL/.test(g),
    triage: { kind: 'document', line: 124, why: '`NOT=23: BOOL -> BOOL`: NOT of a non-BOOL is refused (RethinkDB takes truthiness)' },
  },
  {
    test: (q, g) => /binary/i.test(q) && /BINARY is a client-only term/.test(g),
    triage: { kind: 'document', line: 146, why: '`BINARY=155: STRING -> PSEUDOTYPE(BINARY) (client-only, not supported on the server)`' },
  },
];

export function triageOf(query: string, got: string): Triage | undefined {
  return RULES.find((r) => r.test(query, got))?.triage;
}
