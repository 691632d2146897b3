import { proseOf } from './prose-of.js';

/**
 * The anchors GitHub gives the headings of a markdown file: lower-cased, punctuation dropped, spaces
 * turned into hyphens, and a `-1`, `-2`, … suffix on repeats. Headings inside fenced code are not
 * headings.
 */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  const text = proseOf('.md', markdown).filter((run) => run.example !== true);
  for (const line of text.flatMap((run) => run.text.split('\n'))) {
    const heading = /^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const base = slug(heading);
    const repeats = seen.get(base) ?? 0;
    seen.set(base, repeats + 1);
    anchors.add(repeats === 0 ? base : `${base}-${repeats}`);
  }
  return anchors;
}

/** GitHub's slug of one heading's text (inline code marks and link syntax reduced to their text). */
export function slug(heading: string): string {
  return heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}
