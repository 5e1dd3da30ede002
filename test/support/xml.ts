/**
 * A small, strict XML reader for tests that check generated XML (JUnit reports): elements, attributes,
 * text, the five predefined entities and numeric character references, an optional declaration. It throws on
 * anything not well formed (unbalanced or mismatched tags, a bad attribute, an unknown entity, text after the
 * root), which is what such a test must catch.
 */

/** An element: its name, attributes and children (elements and non-blank text). */
export interface XmlElement {
  readonly name: string;
  readonly attrs: Record<string, string>;
  readonly children: (XmlElement | string)[];
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** Parses a whole document and returns its root element. @throws Error naming the offset of the problem. */
export function parseXml(text: string): XmlElement {
  let i = 0;
  const fail = (why: string): never => {
    throw new Error(`XML not well formed at offset ${i}: ${why}`);
  };
  const skipSpace = (): void => {
    while (i < text.length && /\s/.test(text[i]!)) i++;
  };
  const decode = (raw: string): string =>
    raw.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-z]+);|&/g, (m, e: string | undefined) => {
      if (e === undefined) return fail('a bare &');
      if (e.startsWith('#x')) return String.fromCodePoint(parseInt(e.slice(2), 16));
      if (e.startsWith('#')) return String.fromCodePoint(parseInt(e.slice(1), 10));
      return ENTITIES[e] ?? fail(`unknown entity ${m}`);
    });
  const name = (): string => {
    const m = /^[A-Za-z_][\w.-]*/.exec(text.slice(i));
    if (!m) return fail('a name was expected');
    i += m[0].length;
    return m[0];
  };
  const element = (): XmlElement => {
    if (text[i] !== '<') fail('< was expected');
    i++;
    const el: XmlElement = { name: name(), attrs: {}, children: [] };
    for (;;) {
      skipSpace();
      if (text.startsWith('/>', i)) {
        i += 2;
        return el;
      }
      if (text[i] === '>') {
        i++;
        break;
      }
      const key = name();
      if (key in el.attrs) fail(`attribute ${key} repeated`);
      skipSpace();
      if (text[i] !== '=') fail('= was expected');
      i++;
      skipSpace();
      const q = text[i];
      if (q !== '"' && q !== "'") fail('a quoted value was expected');
      const end = text.indexOf(q!, i + 1);
      if (end < 0) fail('an unterminated attribute value');
      const raw = text.slice(i + 1, end);
      if (raw.includes('<')) fail('< in an attribute value');
      el.attrs[key] = decode(raw);
      i = end + 1;
    }
    for (;;) {
      const lt = text.indexOf('<', i);
      if (lt < 0) fail(`</${el.name}> is missing`);
      const raw = text.slice(i, lt);
      if (raw.trim()) el.children.push(decode(raw));
      i = lt;
      if (text.startsWith('</', i)) {
        i += 2;
        const closing = name();
        if (closing !== el.name) fail(`</${closing}> closes <${el.name}>`);
        skipSpace();
        if (text[i] !== '>') fail('> was expected');
        i++;
        return el;
      }
      el.children.push(element());
    }
  };
  if (text.startsWith('<?xml')) {
    const end = text.indexOf('?>');
    if (end < 0) fail('an unterminated declaration');
    i = end + 2;
  }
  skipSpace();
  const root = element();
  skipSpace();
  if (i !== text.length) fail('content after the root element');
  return root;
}
