// A small XML writer for the JUnit reports. It replaces junit-report-builder, which writes
// target text into CDATA sections and escapes only the first `]]>` of each: a body holding two
// let a target close the section and write `<testcase>` elements of its own (or make the file
// malformed). Here every text and attribute value is escaped as XML text, never CDATA, and
// characters XML 1.0 cannot carry are written as visible escapes (`\x1b`).

export interface XmlElement {
  name: string;
  attrs?: Record<string, string | number | undefined>;
  children?: (XmlElement | string | undefined | false)[];
}

// Not allowed in an XML 1.0 document at all: C0 controls but tab, newline and carriage return;
// lone surrogates; U+FFFE and U+FFFF.
// eslint-disable-next-line no-control-regex
const NOT_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

function visibleCode(c: string): string {
  const code = c.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** Text content: `&`, `<`, `>` escaped (so `]]>` is `]]&gt;`), impossible characters made visible. */
export function xmlText(s: string): string {
  return s.replace(NOT_XML, visibleCode).replace(/[&<>]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : '&gt;'));
}

/** An attribute value in double quotes; whitespace kept as character references (not normalised away). */
export function xmlAttr(s: string): string {
  return xmlText(s).replace(/["\t\n\r]/g, (c) => ({ '"': '&quot;', '\t': '&#9;', '\n': '&#10;', '\r': '&#13;' })[c]!);
}

export function renderXml(root: XmlElement): string {
  const out: string[] = ['<?xml version="1.0" encoding="UTF-8"?>\n'];
  const write = (el: XmlElement, indent: string) => {
    const attrs = Object.entries(el.attrs ?? {})
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => ` ${k}="${xmlAttr(String(v))}"`)
      .join('');
    const children = (el.children ?? []).filter((c): c is XmlElement | string => c !== undefined && c !== false);
    if (!children.length) {
      out.push(`${indent}<${el.name}${attrs}/>\n`);
      return;
    }
    if (children.every((c) => typeof c === 'string')) {
      out.push(`${indent}<${el.name}${attrs}>${children.map((c) => xmlText(c as string)).join('')}</${el.name}>\n`);
      return;
    }
    out.push(`${indent}<${el.name}${attrs}>\n`);
    for (const c of children) {
      if (typeof c === 'string') out.push(`${indent}  ${xmlText(c)}\n`);
      else write(c, `${indent}  `);
    }
    out.push(`${indent}</${el.name}>\n`);
  };
  write(root, '');
  return out.join('');
}
