/**
 * A reader of the YAML the docs' CI recipes are written in (no dependency for it):
 * block mappings and sequences, flow `{...}` and `[...]`, quoted and plain scalars,
 * `|` block scalars, comments. Scalars stay strings. Anything else is an error naming
 * the line, so a recipe never runs half understood. A comment on the line that opens a
 * sequence item is kept under the item's `#` key (the docs test's step markers).
 */
export type Yaml = string | Yaml[] | { [key: string]: Yaml };

interface Line {
  readonly no: number;
  readonly indent: number;
  readonly text: string;
  readonly comment?: string;
  readonly raw: string;
}

/** The text without a trailing comment (a `#` after whitespace, outside quotes), and the comment. */
function splitComment(text: string): { text: string; comment?: string } {
  let quote: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === quote) quote = undefined;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === '#' && (i === 0 || /\s/.test(text[i - 1]))) return { text: text.slice(0, i).trimEnd(), comment: text.slice(i + 1).trim() };
  }
  return { text: text.trimEnd() };
}

export function parseYaml(source: string): Yaml {
  const raw = source.split('\n');
  const lines: Line[] = [];
  raw.forEach((r, i) => lines.push({ no: i + 1, indent: r.length - r.trimStart().length, ...splitComment(r.trimStart()), raw: r }));
  let pos = 0;
  const fail = (line: Line | undefined, why: string): never => {
    throw new Error(`YAML line ${line?.no ?? 'end'}: ${why}${line ? `: ${line.raw.trim()}` : ''}`);
  };
  const skipBlank = () => {
    while (pos < lines.length && lines[pos].text === '') pos++;
  };

  function blockScalar(parentIndent: number): string {
    const body: string[] = [];
    let indent: number | undefined;
    while (pos < lines.length) {
      const r = lines[pos].raw;
      if (r.trim() === '') {
        body.push('');
        pos++;
        continue;
      }
      const ind = r.length - r.trimStart().length;
      if (ind <= parentIndent) break;
      indent ??= ind;
      body.push(r.slice(indent));
      pos++;
    }
    while (body.length && body[body.length - 1] === '') body.pop();
    return `${body.join('\n')}\n`;
  }

  function value(text: string, line: Line, indent: number): Yaml {
    if (text === '|' || text === '|-') return blockScalar(indent);
    if (text === '') {
      skipBlank();
      if (pos < lines.length && lines[pos].indent > indent) return block(lines[pos].indent);
      if (pos < lines.length && lines[pos].indent === indent && lines[pos].text.startsWith('- ')) return block(indent);
      return '';
    }
    return flow(text, line);
  }

  function block(indent: number): Yaml {
    skipBlank();
    const first = lines[pos];
    if (first.text.startsWith('- ') || first.text === '-') {
      const items: Yaml[] = [];
      while (pos < lines.length) {
        skipBlank();
        const line = lines[pos];
        if (!line || line.indent !== indent || !(line.text.startsWith('- ') || line.text === '-')) break;
        pos++;
        const rest = line.text.slice(2).trim();
        const itemIndent = indent + 2;
        if (/^[\w.$-]+:(\s|$)/.test(rest) || /^'[^']*':(\s|$)/.test(rest)) {
          // A mapping item: its first key on the dash's line, the others below at the item's indent.
          const map = mapping(itemIndent, { ...line, indent: itemIndent, text: rest });
          if (line.comment) (map as Record<string, Yaml>)['#'] = line.comment;
          items.push(map);
        } else items.push(value(rest, line, indent));
      }
      return items;
    }
    return mapping(indent);
  }

  function mapping(indent: number, firstLine?: Line): Yaml {
    const map: Record<string, Yaml> = {};
    let line = firstLine;
    for (;;) {
      if (!line) {
        skipBlank();
        line = lines[pos];
        if (!line || line.indent !== indent) break;
        if (line.text.startsWith('- ')) break;
        pos++;
      }
      const m = /^('[^']*'|"[^"]*"|[^:{}[\]'"]+?):(?:\s+(.*))?$/.exec(line.text);
      if (!m) fail(line, 'not a "key: value" line');
      const key = m![1].replace(/^['"]|['"]$/g, '');
      map[key] = value((m![2] ?? '').trim(), line, indent);
      line = undefined;
    }
    skipBlank();
    if (pos < lines.length && lines[pos].indent > indent) fail(lines[pos], 'indented more than its mapping');
    return map;
  }

  function flow(text: string, line: Line): Yaml {
    let i = 0;
    const ws = () => {
      while (i < text.length && text[i] === ' ') i++;
    };
    const item = (stops: string): Yaml => {
      ws();
      const c = text[i];
      if (c === '{') {
        i++;
        const map: Record<string, Yaml> = {};
        for (ws(); text[i] !== '}'; ws()) {
          const key = item(':');
          if (text[i] !== ':') fail(line, 'a flow mapping entry without ":"');
          i++;
          map[String(key)] = item(',}');
          ws();
          if (text[i] === ',') i++;
          else if (text[i] !== '}') fail(line, 'an unclosed flow mapping');
        }
        i++;
        return map;
      }
      if (c === '[') {
        i++;
        const list: Yaml[] = [];
        for (ws(); text[i] !== ']'; ws()) {
          list.push(item(',]'));
          ws();
          if (text[i] === ',') i++;
          else if (text[i] !== ']') fail(line, 'an unclosed flow sequence');
        }
        i++;
        return list;
      }
      if (c === "'" || c === '"') {
        let out = '';
        for (i++; i < text.length; i++) {
          if (text[i] === c) {
            if (c === "'" && text[i + 1] === "'") {
              out += "'";
              i++;
              continue;
            }
            i++;
            return out;
          }
          if (c === '"' && text[i] === '\\') {
            i++;
            out += text[i] === 'n' ? '\n' : text[i];
          } else out += text[i];
        }
        return fail(line, 'an unclosed quoted string');
      }
      // A plain scalar: up to a stop character outside `${{ ... }}` expressions.
      const start = i;
      let depth = 0;
      for (; i < text.length; i++) {
        if (text.startsWith('${{', i)) depth++;
        else if (depth && text.startsWith('}}', i)) {
          depth--;
          i++;
          continue;
        }
        if (!depth && stops.includes(text[i]) && (text[i] !== ':' || text[i + 1] === ' ' || i + 1 === text.length)) break;
      }
      return text.slice(start, i).trim();
    };
    const result = item('');
    ws();
    if (i < text.length) fail(line, `unexpected "${text.slice(i)}"`);
    return result;
  }

  skipBlank();
  if (pos >= lines.length) return {};
  const doc = block(lines[pos].indent);
  skipBlank();
  if (pos < lines.length) fail(lines[pos], 'not part of the document');
  return doc;
}
