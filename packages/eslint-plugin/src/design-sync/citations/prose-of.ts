import ts from 'typescript';

/**
 * A run of text a citation may sit in, with the 1-based line it starts on. An example (fenced code in
 * markdown) may name made-up files, so only its outside-document citations count.
 */
export interface Prose {
  line: number;
  text: string;
  example?: boolean;
  /** Markdown text, whose `[text](target)` links are citations relative to the file. */
  markdown?: boolean;
}

const SCRIPT_KINDS: Record<string, ts.ScriptKind> = {
  ts: ts.ScriptKind.TS,
  mts: ts.ScriptKind.TS,
  cts: ts.ScriptKind.TS,
  tsx: ts.ScriptKind.TSX,
  js: ts.ScriptKind.JS,
  mjs: ts.ScriptKind.JS,
  cjs: ts.ScriptKind.JS,
  jsx: ts.ScriptKind.JSX,
};

/** Whether `path` is a script whose comments (not its strings) are what cites. */
export function isScript(path: string): boolean {
  return scriptKind(path) !== undefined;
}

/**
 * The prose of a file: every comment of a script (strings and code are left alone, so test inputs
 * may spell out paths that do not exist), markdown split into text and fenced examples, the whole
 * text of anything else (YAML, shell).
 */
export function proseOf(path: string, text: string): Prose[] {
  if (path.endsWith('.md')) return markdownProse(text);
  const kind = scriptKind(path);
  if (kind === undefined) return [{ line: 1, text }];
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, false, kind);
  const starts = new Set<number>();
  const prose: Prose[] = [];
  const take = (ranges: ts.CommentRange[] | undefined): void => {
    for (const range of ranges ?? []) {
      if (starts.has(range.pos)) continue;
      starts.add(range.pos);
      prose.push({ line: source.getLineAndCharacterOfPosition(range.pos).line + 1, text: text.slice(range.pos, range.end) });
    }
  };
  const visit = (node: ts.Node): void => {
    take(ts.getLeadingCommentRanges(text, node.pos));
    take(ts.getTrailingCommentRanges(text, node.end));
    ts.forEachChild(node, visit);
  };
  take(ts.getLeadingCommentRanges(text, 0));
  visit(source);
  return prose.sort((a, b) => a.line - b.line);
}

function scriptKind(path: string): ts.ScriptKind | undefined {
  if (path.endsWith('.d.ts')) return ts.ScriptKind.TS;
  const ext = /\.([a-z]+)$/.exec(path)?.[1];
  return ext === undefined ? undefined : SCRIPT_KINDS[ext];
}

/** Markdown as alternating runs of text and fenced code blocks (the fence lines belong to the example). */
function markdownProse(text: string): Prose[] {
  const runs: Prose[] = [];
  let current: Prose = { line: 1, text: '', markdown: true };
  let fence: string | undefined;
  text.split('\n').forEach((line, index) => {
    const mark = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    const opens = mark !== undefined && fence === undefined;
    const closes = mark !== undefined && fence !== undefined && mark.startsWith(fence);
    if (opens) {
      runs.push(current);
      fence = mark;
      current = { line: index + 1, text: '', example: true };
    }
    current.text += `${line}\n`;
    if (closes) {
      runs.push(current);
      fence = undefined;
      current = { line: index + 2, text: '', markdown: true };
    }
  });
  runs.push(current);
  return runs.filter((run) => run.text !== '');
}
