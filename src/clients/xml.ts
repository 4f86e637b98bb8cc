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
    // Entity expansion is a classic attack on XML parsers; bodies here never need it. The five
    // predefined entities and character references are no expansion: they are decoded below.
    processEntities: false,
    tagValueProcessor: (_name, value) => decodeEntities(value),
    attributeValueProcessor: (_name, value) => decodeEntities(value),
  });
  const builder = new XMLBuilder({ ignoreAttributes: false, attributeNamePrefix: '@', textNodeName: '#text', suppressEmptyNode: true, format: false });
  lib = { parser, builder, validate: XMLValidator.validate };
  return lib;
}

const PREDEFINED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** The predefined entities and character references of XML 1.0 (section 4.6, 4.1), decoded. */
function decodeEntities(value: string): string {
  if (!value.includes('&')) return value;
  return value.replace(/&(?:(amp|lt|gt|quot|apos)|#(\d+)|#x([0-9a-fA-F]+));/g, (m, name: string | undefined, dec: string | undefined, hex: string | undefined) => {
    if (name) return PREDEFINED[name];
    const code = dec !== undefined ? Number(dec) : parseInt(hex!, 16);
    return code <= 0x10ffff ? String.fromCodePoint(code) : m;
  });
}

/**
 * Bodies past these are not parsed: parsing is synchronous, and an 8 MB document took over a
 * second, so the check timeouts measured our parser instead of the server; a document nested
 * deeper than any the document shows would make every recursive reader overflow the stack. To
 * the checks such a body is "not a document", and their messages say what came.
 */
export const MAX_XML_CHARS = 2 * 1024 * 1024;
export const MAX_XML_DEPTH = 256;

/** True when elements nest deeper than `limit` (a cheap scan of tags, before any parsing). */
function nestedDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  for (const m of text.matchAll(/<([/?!]?)[^>]*?(\/?)>/g)) {
    if (m[1] === '/') depth--;
    else if (m[1] === '' && m[2] !== '/' && ++depth > limit) return true;
  }
  return false;
}

/**
 * Is the text a well-formed XML document this module can read (what parseXml accepts), without
 * building its tree: the fuzz oracle asks only that, for every answer, and the tree cost it as
 * much again as the validation.
 */
export function isWellFormedXml(text: string): boolean {
  if (!text.trim()) return false;
  if (text.length > MAX_XML_CHARS || nestedDeeperThan(text, MAX_XML_DEPTH)) return false;
  try {
    return xml().validate(text) === true;
  } catch {
    return false;
  }
}

/** Parses an XML document; undefined when the text is not well-formed XML or cannot be read safely. */
export function parseXml(text: string): XmlNode | undefined {
  if (!text.trim()) return undefined;
  if (text.length > MAX_XML_CHARS || nestedDeeperThan(text, MAX_XML_DEPTH)) return undefined;
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
