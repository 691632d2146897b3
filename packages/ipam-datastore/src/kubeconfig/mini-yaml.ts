
/**
 * A reader for the block-style YAML subset kubeconfig files use (maps, lists of maps, plain and
 * quoted scalars). Loading a full YAML library, or the Kubernetes client, would cost the exec'd
 * plugin tens to hundreds of milliseconds per pod (design/ipam-datastore.md, "Kubernetes backend:
 * kubeconfig loading"). Its errors carry a line number and a fixed description, never the text.
 */
export type YamlValue = string | boolean | null | YamlValue[] | { [key: string]: YamlValue };

interface Line {
  indent: number;
  text: string;
  no: number;
}

/** A line the reader does not understand: `line` and a fixed description, never the line's text. */
export class MiniYamlError extends Error {
  override name = 'MiniYamlError';
  constructor(
    readonly line: number,
    readonly problem: string,
  ) {
    super(`unsupported YAML at line ${line} (${problem})`);
  }
}

function unsupported(line: Line, what: string): MiniYamlError {
  return new MiniYamlError(line.no, what);
}

function scalar(raw: string, line: Line): YamlValue {
  const text = raw.trim();
  if (text === '' || text === '~' || text === 'null') return null;
  if (text === 'true') return true;
  if (text === 'false') return false;
  if (text === '[]') return [];
  if (text === '{}') return {};
  if (text.startsWith('"')) {
    try {
      return JSON.parse(text) as string;
    } catch {
      throw unsupported(line, 'double-quoted scalar');
    }
  }
  if (text.startsWith("'")) {
    if (!text.endsWith("'") || text.length < 2) throw unsupported(line, 'single-quoted scalar');
    return text.slice(1, -1).replace(/''/g, "'");
  }
  if (text.startsWith('|') || text.startsWith('>') || text.startsWith('[') || text.startsWith('{') || text.startsWith('&') || text.startsWith('*')) {
    throw unsupported(line, 'block or flow style');
  }
  const comment = text.indexOf(' #');
  return comment === -1 ? text : text.slice(0, comment).trim();
}

function splitKey(line: Line): { key: string; rest: string } {
  const m = /^("(?:[^"\\]|\\.)*"|'[^']*'|[^:'"]+?)\s*:(?:\s+(.*))?$/.exec(line.text);
  if (m === null) throw unsupported(line, 'expected "key: value"');
  const rawKey = m[1] ?? '';
  const unquoted = rawKey.startsWith('"') || rawKey.startsWith("'") ? scalar(rawKey, line) : rawKey;
  const key = typeof unquoted === 'string' ? unquoted : rawKey;
  return { key, rest: m[2] ?? '' };
}

class Parser {
  private i = 0;
  constructor(private readonly lines: Line[]) {}

  parse(): YamlValue {
    const first = this.lines[0];
    if (first === undefined) return null;
    return this.block(first.indent);
  }

  private block(indent: number): YamlValue {
    const line = this.lines[this.i];
    if (line === undefined || line.indent < indent) return null;
    return line.text === '-' || line.text.startsWith('- ') ? this.sequence(line.indent) : this.mapping(line.indent);
  }

  private sequence(indent: number): YamlValue[] {
    const items: YamlValue[] = [];
    for (let line = this.lines[this.i]; line !== undefined && line.indent === indent && (line.text === '-' || line.text.startsWith('- ')); line = this.lines[this.i]) {
      const rest = line.text.slice(1);
      const content = rest.trimStart();
      if (content === '') {
        this.i++;
        items.push(this.block(indent + 1));
      } else if (/^[^'"\s][^:]*:(\s|$)|^["'][^"']*["']\s*:(\s|$)/.test(content)) {
        // "- key: value" opens a mapping whose keys sit at the column of "key".
        this.lines[this.i] = { indent: indent + 1 + (rest.length - content.length), text: content, no: line.no };
        items.push(this.mapping(indent + 1 + (rest.length - content.length)));
      } else {
        this.i++;
        items.push(scalar(content, line));
      }
    }
    return items;
  }

  private mapping(indent: number): { [key: string]: YamlValue } {
    const out: { [key: string]: YamlValue } = {};
    for (let line = this.lines[this.i]; line !== undefined && line.indent === indent && !line.text.startsWith('- ') && line.text !== '-'; line = this.lines[this.i]) {
      const { key, rest } = splitKey(line);
      this.i++;
      if (rest.trim() !== '') {
        out[key] = scalar(rest, line);
        continue;
      }
      const next = this.lines[this.i];
      // kubectl writes list items at the parent key's indentation ("clusters:\n- cluster:").
      const childIsList = next !== undefined && next.indent === indent && (next.text.startsWith('- ') || next.text === '-');
      out[key] = next !== undefined && (next.indent > indent || childIsList) ? this.block(next.indent) : null;
    }
    const stray = this.lines[this.i];
    if (stray !== undefined && stray.indent > indent) throw unsupported(stray, 'unexpected indentation');
    return out;
  }
}

/**
 * The lines of `text` as `split(/\r?\n/)` cuts them, without a regular expression: a split by one
 * runs the expression at every character, and compiling it is a short-lived process's cost
 * (design/ipam-datastore.md, "Kubernetes backend: kubeconfig loading").
 */
function linesOf(text: string): string[] {
  const lines = text.split('\n');
  for (let i = 0; i < lines.length - 1; i += 1) {
    const line = lines[i] ?? '';
    if (line.endsWith('\r')) lines[i] = line.slice(0, -1);
  }
  return lines;
}

/** True when the indentation of `raw` (its leading spaces) ends in a tab. */
function tabIndented(raw: string): boolean {
  let i = 0;
  while (raw.charCodeAt(i) === 0x20) i += 1;
  return raw.charCodeAt(i) === 0x09;
}

export function parseMiniYaml(text: string): YamlValue {
  const lines: Line[] = [];
  linesOf(text).forEach((raw, idx) => {
    if (tabIndented(raw)) throw new MiniYamlError(idx + 1, 'tab indentation');
    const trimmed = raw.trim();
    if (trimmed === '' || trimmed.startsWith('#') || trimmed === '---') return;
    lines.push({ indent: raw.length - raw.trimStart().length, text: trimmed, no: idx + 1 });
  });
  return new Parser(lines).parse();
}
