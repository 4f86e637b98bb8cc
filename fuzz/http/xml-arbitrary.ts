// fast-check arbitraries of XML bodies for the BUILD routes that take one: a plausible document of
// the route's root element, then one named mutation — malformed, deeply nested, huge attribute,
// entity expansion ("billion laughs"), external entity, odd encodings. The document shows no
// element schemas, so "plausible" is the build service's customary root element with random children.
import fc from 'fast-check';
import { anyUnicode } from '../core/any-unicode.ts';

const NAMES = ['title', 'description', 'person', 'group', 'repository', 'arch', 'path', 'action', 'source', 'target', 'state', 'value', 'entry', 'x'];


const escapeXml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** A random element tree below `root`, as text. */
function element(depth: number): fc.Arbitrary<string> {
  const leaf = fc.tuple(fc.constantFrom(...NAMES), fc.string({ maxLength: 12 })).map(([n, t]) => `<${n}>${escapeXml(t)}</${n}>`);
  if (depth <= 0) return leaf;
  return fc.oneof(
    { weight: 3, arbitrary: leaf },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.constantFrom(...NAMES), fc.dictionary(fc.constantFrom('name', 'project', 'package', 'userid', 'role', 'type'), fc.string({ maxLength: 10 }), { maxKeys: 2 }), fc.array(element(depth - 1), { maxLength: 3 }))
        .map(([n, attrs, kids]) => `<${n}${Object.entries(attrs).map(([k, v]) => ` ${k}="${escapeXml(v)}"`).join('')}>${kids.join('')}</${n}>`),
    },
  );
}

export interface XmlBody {
  text: string;
  mutation: string;
}

/** Bodies for a route whose document has root element `root` (and, when given, `name="..."`). */
export function xmlBody(root: string, nameAttr?: string): fc.Arbitrary<XmlBody> {
  const open = `<${root}${nameAttr ? ` name="${escapeXml(nameAttr)}"` : ''}>`;
  const plausible = fc.array(element(2), { maxLength: 4 }).map((kids) => `${open}${kids.join('')}</${root}>`);
  return fc.oneof(
    { weight: 3, arbitrary: plausible.map((text) => ({ text, mutation: 'plausible' })) },
    plausible.chain((t) => fc.nat({ max: Math.max(0, t.length - 1) }).map((cut) => ({ text: t.slice(0, cut), mutation: `truncated at ${cut}` }))),
    fc.integer({ min: 65, max: 1000 }).map((n) => ({ text: `${open}${'<x>'.repeat(n)}${'</x>'.repeat(n)}</${root}>`, mutation: `nested ${n} deep` })),
    fc.integer({ min: 1, max: 64 }).map((kb) => ({ text: `<${root} name="${'A'.repeat(kb * 1024)}"/>`, mutation: `attribute of ${kb} KiB` })),
    fc.constant({
      text: `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;"><!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;"><!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">]>${open}<title>&lol4;</title></${root}>`,
      mutation: 'entity expansion',
    }),
    fc.constant({ text: `<?xml version="1.0"?><!DOCTYPE r [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>${open}<title>&xxe;</title></${root}>`, mutation: 'external entity' }),
    fc.constantFrom('', '<', '<a><b></a></b>', `${open}<title>unclosed`, '<?xml version="1.0" encoding="UTF-16"?><x/>', '\ufeff<x/>', '<x>\u0000</x>', '<x y="1" y="2"/>', '<!-- only a comment -->', 'plain text, not XML').map((text) => ({ text, mutation: 'malformed' })),
    anyUnicode(64).map((t) => ({ text: `${open}<title>${escapeXml(t)}</title></${root}>`, mutation: 'unicode text' })),
  );
}
