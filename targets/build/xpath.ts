// The xpath predicate subset build-ref's search understands: `and`, `or`, `not(...)`, parentheses,
// `path='literal'`, `path!='literal'`, a bare path (exists), `contains(path, 'x')` and
// `starts-with(path, 'x')` and `path[predicate]`, where a path is element steps and an optional
// final `@attribute`.
// Enough for what clients send (osc: `state/@name='new' and action/target/@project='p'`).
type Node = Record<string, unknown>;

export class XPathError extends Error {}

type Expr = (node: Node) => boolean;

export function compileXPath(source: string): Expr {
  const tokens = source.match(/'[^']*'|"[^"]*"|!=|[()=,[\]]|[^\s()=,!'"[\]]+/g) ?? [];
  let i = 0;
  const peek = () => tokens[i];
  const take = (expected?: string) => {
    const t = tokens[i++];
    if (t === undefined || (expected !== undefined && t !== expected)) throw new XPathError(`xpath: expected ${expected ?? 'more'} at '${t ?? 'end'}' in ${source}`);
    return t;
  };
  const literal = () => {
    const t = take();
    if (!/^['"]/.test(t)) throw new XPathError(`xpath: expected a quoted literal, got ${t}`);
    return t.slice(1, -1);
  };
  const or = (): Expr => {
    let left = and();
    while (peek() === 'or') {
      take();
      const a = left;
      const b = and();
      left = (n) => a(n) || b(n);
    }
    return left;
  };
  const and = (): Expr => {
    let left = unary();
    while (peek() === 'and') {
      take();
      const a = left;
      const b = unary();
      left = (n) => a(n) && b(n);
    }
    return left;
  };
  const unary = (): Expr => {
    const t = peek();
    if (t === '(') {
      take('(');
      const e = or();
      take(')');
      return e;
    }
    if (t === '[') {
      // A bare predicate on the node itself (osc sends `[devel/[@project='p' and @package='k']]`).
      take('[');
      const e = or();
      take(']');
      return e;
    }
    if (t === 'not' || t === 'contains' || t === 'starts-with') {
      take();
      take('(');
      if (t === 'not') {
        const e = or();
        take(')');
        return (n) => !e(n);
      }
      const path = take();
      take(',');
      const value = literal();
      take(')');
      return t === 'contains' ? (n) => values(n, path).some((v) => v.includes(value)) : (n) => values(n, path).some((v) => v.startsWith(value));
    }
    const path = take();
    if (peek() === '[') {
      // path[predicate]: some node the path reaches satisfies the predicate.
      take('[');
      const pred = or();
      take(']');
      return (n) => nodes(n, path).some((x) => x !== null && typeof x === 'object' && pred(x as Node));
    }
    if (peek() === '=' || peek() === '!=') {
      const op = take();
      const value = literal();
      return op === '=' ? (n) => values(n, path).includes(value) : (n) => values(n, path).some((v) => v !== value);
    }
    return (n) => values(n, path).length > 0;
  };
  const expr = or();
  if (i !== tokens.length) throw new XPathError(`xpath: unexpected '${tokens[i]}' in ${source}`);
  return expr;
}

/** The string values a path reaches below `node`. */
function values(node: Node, path: string): string[] {
  return nodes(node, path).map((v) => (v && typeof v === 'object' ? String((v as Node)['#text'] ?? '') : String(v)));
}

/** The nodes (elements, or attribute values) a path reaches below `node`. */
function nodes(node: Node, path: string): unknown[] {
  let current: unknown[] = [node];
  for (const step of path.split('/').filter(Boolean)) {
    const next: unknown[] = [];
    for (const c of current) {
      if (!c || typeof c !== 'object') continue;
      const v = (c as Node)[step];
      if (v === undefined) continue;
      for (const x of Array.isArray(v) ? v : [v]) next.push(x);
    }
    current = next;
  }
  return current;
}
