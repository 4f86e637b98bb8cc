// The one XML module (fast-xml-parser): BUILD checks read bodies through it and build-ref writes
// them with it. The document does not reproduce element-by-element schemas, so readers look
// only for the elements and attributes the document names.
import { createRequire } from 'node:module';
import type { XMLBuilder as Builder, XMLParser as Parser } from 'fast-xml-parser';

export type XmlNode = Record<string, unknown>;

type FastXml = typeof import('fast-xml-parser');
let lib: { parser: Parser; builder: Builder; validate: FastXml['XMLValidator']['validate'] } | undefined;

/** The parser and builder, made on first use: listing checks never loads fast-xml-parser. */
function xml() {
  if (lib) return lib;
  const { XMLBuilder, XMLParser, XMLValidator } = createRequire(import.meta.url)('fast-xml-parser') as FastXml;
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '@',
    textNodeName: '#text',
    parseAttributeValue: false,
    parseTagValue: false,
    // Every element may repeat: readers always get arrays, whatever one document happens to hold.
    isArray: (_name, _path, _isLeaf, isAttribute) => !isAttribute,
    // Entity expansion is a classic attack on XML parsers; bodies here never need it.
    processEntities: false,
  });
  const builder = new XMLBuilder({ ignoreAttributes: false, attributeNamePrefix: '@', textNodeName: '#text', suppressEmptyNode: true, format: false });
  lib = { parser, builder, validate: XMLValidator.validate };
  return lib;
}

/** Parses an XML document; undefined when the text is not well-formed XML or cannot be read safely. */
export function parseXml(text: string): XmlNode | undefined {
  if (!text.trim()) return undefined;
  // The validator and the parser both refuse some documents by throwing (entity declarations,
  // very deep nesting): a document this module cannot read is not a document to it.
  try {
    if (xml().validate(text) !== true) return undefined;
    return xml().parser.parse(text) as XmlNode;
  } catch {
    return undefined;
  }
}

/** Writes an element tree; `{ project: { '@name': 'x', title: 'T' } }` -> `<project name="x"><title>T</title></project>`. */
export function buildXml(tree: XmlNode): string {
  return xml().builder.build(tree) as string;
}

/** Every element named `name` anywhere below `node`, in document order. */
export function elements(node: unknown, name: string): XmlNode[] {
  const out: XmlNode[] = [];
  const walk = (n: unknown) => {
    if (Array.isArray(n)) return n.forEach(walk);
    if (!n || typeof n !== 'object') return;
    for (const [k, v] of Object.entries(n as XmlNode)) {
      if (k.startsWith('@') || k === '#text') continue;
      if (k === name) for (const el of Array.isArray(v) ? v : [v]) out.push(typeof el === 'object' && el !== null ? (el as XmlNode) : { '#text': el });
      walk(v);
    }
  };
  walk(node);
  return out;
}

/** The root element's name and node of a parsed document. */
export function rootOf(doc: XmlNode | undefined): { name: string; node: XmlNode } | undefined {
  if (!doc) return undefined;
  const name = Object.keys(doc).find((k) => !k.startsWith('?') && !k.startsWith('@'));
  if (!name) return undefined;
  const v = doc[name];
  return { name, node: (Array.isArray(v) ? v[0] : v) as XmlNode };
}

export function attr(node: XmlNode | undefined, name: string): string | undefined {
  const v = node?.[`@${name}`];
  return v === undefined ? undefined : String(v);
}

export function text(node: XmlNode | undefined): string {
  const v = node?.['#text'];
  return v === undefined ? '' : String(v);
}
