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
  {
    // ADD/SUB of TIMEs and numbers (RethinkDB's time arithmetic), and DURING or MAP over such sums.
    test: (_q, g) => /Expected type NUMBER but found PTYPE<TIME>/.test(g),
    triage: { kind: 'document', line: 138, why: '`ADD=24: NUMBER... -> NUMBER | STRING... -> STRING (also concatenates arrays); SUB=25, MUL=26, DIV=27 (NUMBER... -> NUMBER)`: no TIME arithmetic' },
  },
  {
    test: (q, g) => /\.mul\(/.test(q) && /Expected type NUMBER but found ARRAY/.test(g),
    triage: { kind: 'document', line: 138, why: '`MUL=26 (NUMBER... -> NUMBER)`: an ARRAY is not repeated (RethinkDB repeats it)' },
  },
  {
    test: (q, g) => /\.(slice|count)\(/.test(q) && /Expected type SEQUENCE but found (STRING|OBJECT|PTYPE<BINARY>)/.test(g),
    triage: { kind: 'document', line: 142, why: '`SLICE=30: Sequence, NUMBER, NUMBER -> Sequence`, `COUNT=43: Sequence ...`: a STRING, OBJECT or BINARY is not a Sequence (RethinkDB slices and counts strings and binaries, counts object keys)' },
  },
  {
    test: (q, g) => /r\.uuid\(\S/.test(q) && /to UUID but found/.test(g),
    triage: { kind: 'document', line: 132, why: '`UUID=169: () -> DATUM`: no argument (RethinkDB takes a string to hash)' },
  },
  {
    test: (_q, g) => /must be a literal value, not a sub-term/.test(g),
    triage: { kind: 'document', line: 11, why: '`!` marks an argument that must be a literal value, not a sub-term (EQ_JOIN\'s field, ORDER_BY\'s keys): RethinkDB evaluates a function or term there' },
  },
  {
    test: (q, g) => /\b(do|forEach|for_each|map)\(/.test(q) && /Expected type FUNCTION but found (NUMBER|OBJECT)/.test(g),
    triage: { kind: 'document', line: 146, why: '`FUNCALL=64: Function(*), DATUM...`, `FOR_EACH=68: Sequence, Function(1)`, `MAP=38: Sequence..., Function(n)`: a non-function is refused (RethinkDB makes it a constant function)' },
  },
  {
    test: (q, g) => /\.get\(/.test(q) && /Primary keys must be a STRING or a NUMBER/.test(g),
    triage: { kind: 'document', line: 134, why: '`GET=16: Table, STRING|NUMBER`: other keys (ARRAY, TIME) are refused (RethinkDB takes any key datum)' },
  },
  {
    test: (q, g) => /\.get\(/.test(q) && /Expected a selection but found NULL/.test(g),
    triage: { kind: 'document', line: 134, why: '`GET=16: ... -> SingleSelection or NULL`: GET of a missing row is NULL, which the writes (`REPLACE=55: StreamSelection|SingleSelection`) refuse; RethinkDB writes through it (REPLACE inserts)' },
  },
  {
    test: (_q, g) => /Expected function with 3 argument\(s\) but found function with 2 argument\(s\)/.test(g),
    triage: { kind: 'document', line: 154, why: '`SET_WRITE_HOOK=189: Table, Function(2)`: a hook takes (old, new); RethinkDB\'s take (context, old, new)' },
  },
  {
    test: (q, g) => /\.(intersects|includes)\(/.test(q) && /Expected type PTYPE<GEOMETRY> but found ARRAY/.test(g),
    triage: { kind: 'document', line: 158, why: '`INTERSECTS=163 and INCLUDES=164: GEOMETRY, GEOMETRY -> BOOL`: a sequence is not filtered (RethinkDB filters a sequence of geometries)' },
  },
  {
    test: (q, g) => /conflict:\s*function/.test(q) && /Expected type DATUM but found FUNCTION/.test(g),
    triage: { kind: 'document', line: 150, why: '`INSERT=56: Table, OBJECT|Sequence, {conflict:STRING, ...}` (`replace`, `update`, `error`): a function is refused (RethinkDB calls it to resolve the conflict)' },
  },
  {
    test: (q, g) => /geo_system'?\s*:\s*\{/.test(q) && /Expected type STRING but found OBJECT/.test(g),
    triage: { kind: 'document', line: 158, why: '`DISTANCE=162: GEOMETRY, GEOMETRY {geo_system:STRING, unit:STRING}`: an ellipsoid given as an OBJECT is refused (RethinkDB takes {a, f})' },
  },
];

export function triageOf(query: string, got: string): Triage | undefined {
  return RULES.find((r) => r.test(query, got))?.triage;
}
