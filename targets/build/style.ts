// How build-ref writes XML. The document shows no body structure (build-service-api.md line 43:
// "Element-by-element structure of every body and result ...: not shown"), so the reference and
// its variant (docs/open-choices.md) take the choices it leaves open differently:
//  - reference: fast-xml-parser's compact form: double quotes, no declaration, attributes and
//    child elements in the order the handler gives them, no whitespace between elements;
//  - variant: an XML declaration, single-quoted attributes in reverse order, child elements in
//    reverse order (element names and repeated elements alike), indented two spaces a level;
//    except in the documents whose child order the service's own schemas fix (FIXED_ORDER), where
//    the variant keeps the order: a layout the document does not show is the service's.
// This is the one place a reply body is serialized: Api reads the variant flag here.
import { buildXml, parseXml, type XmlNode } from '../../src/clients/xml.ts';

export const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>';

/**
 * Root elements whose children come in an order the build service's schemas fix
 * (test/fixtures/obs-schemas): project.rng and package.rng (title, description first, then the
 * rest in sequence) and about.xsd (a sequence).
 */
const FIXED_ORDER = new Set(['project', 'package', 'about']);

export function serializeXml(tree: XmlNode, variant: boolean): string {
  if (!variant) return buildXml(tree);
  return `${XML_DECLARATION}\n${Object.entries(tree)
    .filter(([k]) => !k.startsWith('?') && !k.startsWith('@'))
    .map(([name, v]) => element(name, Array.isArray(v) ? v[0] : v, 0, !FIXED_ORDER.has(name)))
    .join('')}`;
}

/**
 * A document handed over as text (a project or package meta as it was written): the variant
 * renders it again in its own style, as a service that keeps metas in a database does.
 */
export function restyleXmlText(text: string, variant: boolean): string {
  if (!variant) return text;
  const doc = parseXml(text);
  return doc ? serializeXml(doc, true) : text;
}

const escText = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const escAttr = (s: string) => escText(s).replace(/'/g, '&apos;');

/** One element in the variant's style; `reverse`: its children (and theirs) in reverse order. */
function element(name: string, value: unknown, depth: number, reverse: boolean): string {
  const pad = '  '.repeat(depth);
  if (value === undefined || value === null) return '';
  if (typeof value !== 'object') {
    const t = String(value);
    return t === '' ? `${pad}<${name}/>\n` : `${pad}<${name}>${escText(t)}</${name}>\n`;
  }
  const node = value as XmlNode;
  const attrs = Object.entries(node)
    .filter(([k, v]) => k.startsWith('@') && v !== undefined && v !== null)
    .reverse()
    .map(([k, v]) => ` ${k.slice(1)}='${escAttr(String(v))}'`)
    .join('');
  const text = node['#text'] === undefined || node['#text'] === null ? '' : String(node['#text']);
  const entries = Object.entries(node).filter(([k]) => !k.startsWith('@') && k !== '#text');
  const children = (reverse ? entries.reverse() : entries)
    .flatMap(([k, v]) => (Array.isArray(v) ? (reverse ? [...v].reverse() : v) : [v]).map((x) => element(k, x, depth + 1, reverse)))
    .join('');
  if (!children && !text) return `${pad}<${name}${attrs}/>\n`;
  if (!children) return `${pad}<${name}${attrs}>${escText(text)}</${name}>\n`;
  return `${pad}<${name}${attrs}>\n${text ? `${pad}  ${escText(text)}\n` : ''}${children}${pad}</${name}>\n`;
}
