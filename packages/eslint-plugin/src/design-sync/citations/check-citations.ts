import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import { findCitations } from './find-citations.js';
import { headingAnchors } from './heading-anchors.js';
import { isScript, proseOf } from './prose-of.js';

/** One citation that a reader of the repository could not follow. */
export interface CitationProblem {
  file: string;
  line: number;
  message: string;
}

/** Text files whose prose is checked; everything else (images, lockfiles, JSON) is not prose. */
const PROSE_FILE = /(?:\.(?:md|[cm]?[jt]sx?|ya?ml|sh)|(?:^|\/)Dockerfile|(?:^|\/)CODEOWNERS)$/;

/** Generated or third-party text: changelogs are written by the release tooling. */
const NOT_OURS = /(?:^|\/)(?:CHANGELOG\.md|node_modules\/.*|dist\/.*)$/;

/** Whether the citation check reads `path` (repository-relative). */
export function isCheckedFile(path: string): boolean {
  return PROSE_FILE.test(path) && !NOT_OURS.test(path);
}

/**
 * Every citation in `files` (repository-relative) that does not resolve under `root`: a path that does
 * not exist, an anchor that is not a heading of the cited markdown file, or a document outside the
 * repository. Markdown files are read once for their anchors.
 */
export function checkCitations(root: string, files: readonly string[]): CitationProblem[] {
  const anchorsOf = new Map<string, Set<string>>();
  const problems: CitationProblem[] = [];
  for (const file of files) {
    if (!isCheckedFile(file)) continue;
    const absolute = join(root, file);
    if (!existsSync(absolute)) continue;
    const text = readFileSync(absolute, 'utf8');
    if (isScript(file) && !mayCite(text)) continue;
    for (const citation of findCitations(proseOf(file, text))) {
      if (citation.kind === 'outside') {
        problems.push({ file, line: citation.line, message: `cites ${citation.text}, which is not in the repository; cite the design/ doc that states the fact` });
        continue;
      }
      const cited = citation.kind === 'relative' ? (citation.path === '' ? file : posix.join(dirname(file), citation.path)) : citation.path;
      const shown = citation.path === '' ? '' : citation.path;
      if (cited.startsWith('../')) {
        problems.push({ file, line: citation.line, message: `links to ${shown}, which is outside the repository` });
        continue;
      }
      const target = join(root, cited);
      if (!existsSync(target)) {
        problems.push({ file, line: citation.line, message: `cites ${shown}, which does not exist` });
        continue;
      }
      if (citation.anchor === undefined) continue;
      if (!cited.endsWith('.md') || !statSync(target).isFile()) {
        problems.push({ file, line: citation.line, message: `cites ${shown}#${citation.anchor}, but only markdown files have anchors` });
        continue;
      }
      let anchors = anchorsOf.get(cited);
      if (anchors === undefined) {
        anchors = headingAnchors(readFileSync(target, 'utf8'));
        anchorsOf.set(cited, anchors);
      }
      if (!anchors.has(citation.anchor)) {
        problems.push({ file, line: citation.line, message: `cites ${shown}#${citation.anchor}, which is not a heading of ${cited}` });
      }
    }
  }
  return problems;
}

/** Parsing a script costs time: skip those that mention nothing a citation could be. */
function mayCite(text: string): boolean {
  return /design\/|packages\/|\.md\b|shared|§/.test(text);
}
