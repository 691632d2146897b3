import { type Prose } from './prose-of.js';

/** A path the prose cites: one inside the repository, or one of the documents that never were. */
export type Citation =
  | { kind: 'repository'; line: number; path: string; anchor: string | undefined }
  /** A markdown link target, relative to the citing file (`''` with an anchor: the file itself). */
  | { kind: 'relative'; line: number; path: string; anchor: string | undefined }
  | { kind: 'outside'; line: number; text: string };

/**
 * The documents the code was once written against, kept outside the repository, by path, by bare
 * file name, or by their numbered sections (no document in the repository numbers its sections).
 * Their facts now live in design/ (design/eslint-plugin.md#citations), so citing them is always wrong.
 */
const OUTSIDE = [
  /(?<![\w.-])spec\/[\w.-]*\.md\b/gi,
  /(?<![\w./-])spec\/(?=\s|$)/g,
  /\.\.\/shared\b/g,
  /\/work\/shared\b/g,
  /\bARCHITECTURE\.md\b/g,
  /\bCONVENTIONS\.md\b/g,
  /(?<![\w./-])toolchain\.md\b/g,
  /(?<![\w./-])(?:core|datastore|api|hammer)\.md\b/g,
  /§\s?[\dA-Z]/g,
];

/** `design/…` or `packages/…`, with an optional `#anchor`. */
const REPOSITORY_PATH = /(?<![\w./@-])((?:design|packages)\/[\w./@-]*)(#[\p{L}\p{N}_-]+)?/gu;

/** A markdown link target that is neither a URL (`https:`, `mailto:`) nor rooted (`/…`). */
const RELATIVE_LINK = /\]\((?![a-z][a-z0-9+.-]*:|\/)([^)\s#]*)(?:#([^)\s]*))?\)/g;

/** A path followed by one of these is a pattern or a template, not a citation. */
const PATTERN_CONTINUES = /^[*{<$[]/;

/** Every citation in the given prose, in order. */
export function findCitations(prose: readonly Prose[]): Citation[] {
  const found: Citation[] = [];
  for (const run of prose) {
    // Relative link targets are resolved against the file, not pattern-matched.
    const text = withoutUrls(run.markdown === true ? withoutLinkTargets(run.text) : run.text);
    for (const pattern of OUTSIDE) {
      for (const match of text.matchAll(pattern)) {
        found.push({ kind: 'outside', line: lineOf(run, match.index), text: match[0] });
      }
    }
    if (run.example === true) continue;
    if (run.markdown === true) {
      for (const match of withoutInlineCode(run.text).matchAll(RELATIVE_LINK)) {
        if (match[1] === '' && match[2] === undefined) continue;
        found.push({ kind: 'relative', line: lineOf(run, match.index), path: match[1] ?? '', anchor: match[2] });
      }
    }
    for (const match of text.matchAll(REPOSITORY_PATH)) {
      const raw = match[1] ?? '';
      const anchorText = match[2];
      const after = text.slice(match.index + match[0].length);
      if (anchorText === undefined && PATTERN_CONTINUES.test(after)) continue;
      const path = raw.replace(/[./-]+$/, '');
      if (!/^(?:design|packages)\/./.test(path) || isBuildOutput(path)) continue;
      found.push({ kind: 'repository', line: lineOf(run, match.index), path, anchor: anchorText?.slice(1) });
    }
  }
  return found.sort((a, b) => a.line - b.line);
}

/** The text with every relative link target blanked (same length, so positions and lines hold). */
function withoutLinkTargets(text: string): string {
  const links = [...withoutInlineCode(text).matchAll(RELATIVE_LINK)];
  let out = text;
  for (const link of links) {
    const start = link.index + 2;
    const end = link.index + link[0].length - 1;
    out = out.slice(0, start) + ' '.repeat(end - start) + out.slice(end);
  }
  return out;
}

/** The text with inline code spans blanked: `[a](b)` inside backticks is not a link. */
function withoutInlineCode(text: string): string {
  return text.replace(/`[^`\n]*`/g, (code) => ' '.repeat(code.length));
}

/** The text with every URL blanked: a web address is not a file of ours, whatever its path says. */
function withoutUrls(text: string): string {
  return text.replace(/\b[a-z][a-z0-9+.-]*:\/\/[^\s)>`'"]+/g, (url) => ' '.repeat(url.length));
}

/** Built files (`packages/cli/dist/ipamkit`) are cited but never committed. */
function isBuildOutput(path: string): boolean {
  return path.split('/').some((segment) => segment === 'dist' || segment === 'node_modules');
}

function lineOf(run: Prose, index: number): number {
  let line = run.line;
  for (let i = 0; i < index; i++) if (run.text.charCodeAt(i) === 10) line++;
  return line;
}
