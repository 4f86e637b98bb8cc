// RethinkDB's polyglot test format (test/rql_test/src/*.yaml): a port of the tiny YAML reader
// RethinkDB's own runner uses (test/common/parsePolyglot.py). Every scalar stays raw text: an
// `ot: 'abc'` is the source text `'abc'`, evaluated later as an expression, as RethinkDB does.
export type PolyValue = string | PolyValue[] | { [key: string]: PolyValue };

const LINE = /^(?<indent> *)((?<itemMarker>- +)(?<itemContent>.*)|((?<key>[\w.]+)(?<keyExtra>: *))?(?<content>.*))\s*$/;

export function parsePolyglot(source: string): PolyValue | undefined {
  const lines = source.split('\n').map((text, i) => ({ n: i + 1, text }));
  const pushed: { n: number; text: string }[] = [];
  let next = 0;
  const read = () => (pushed.length ? pushed.pop() : next < lines.length ? lines[next++] : undefined);
  const unread = (l: { n: number; text: string }) => pushed.push(l);

  function inner(indent: number): PolyValue | undefined {
    let item: PolyValue | undefined;
    for (let l = read(); l; l = read()) {
      const line = l.text;
      if (line.trim() === '' || /^\s*#/.test(line)) continue;
      const m = LINE.exec(line);
      if (!m?.groups) throw new Error(`Unparseable YAML line ${l.n}: ${line}`);
      const g = m.groups;
      const lineIndent = g.indent.length;
      const content = (g.content || g.itemContent || '').trim();
      if (lineIndent < indent) {
        unread(l);
        return item;
      }
      if (g.itemMarker) {
        if (item === undefined) {
          item = [];
          indent = lineIndent;
        } else if (!Array.isArray(item)) throw new Error(`Bad YAML: a list item in a ${typeof item} on line ${l.n}`);
        unread({ n: l.n, text: ' '.repeat(lineIndent + g.itemMarker.length) + content });
        const v = inner(indent + 1);
        (item as PolyValue[]).push(v ?? '');
      } else if (g.key) {
        if (item === undefined) {
          item = {};
          indent = lineIndent;
        } else if (typeof item !== 'object' || Array.isArray(item)) throw new Error(`Bad YAML: a key in a ${typeof item} on line ${l.n}`);
        unread({ n: l.n, text: ' '.repeat(lineIndent + g.key.length + g.keyExtra.length) + content });
        (item as Record<string, PolyValue>)[g.key] = inner(indent + 1) ?? '';
      } else {
        if (item === undefined) {
          item = '';
          if (['|', '|-', '>'].includes(content.trim())) continue;
        } else if (typeof item !== 'string') throw new Error(`Bad YAML: a value in a ${Array.isArray(item) ? 'list' : 'dict'} on line ${l.n}`);
        item = item ? `${item}\n${content}` : content;
      }
    }
    return item;
  }
  return inner(0);
}
