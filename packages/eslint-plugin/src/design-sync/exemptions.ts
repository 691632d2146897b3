import { DesignTableError } from '../errors.js';

/** The four reasons a change may skip its design doc (design/README.md, "The design-sync rule"). */
export const EXEMPTION_KINDS = ['bug-fix', 'refactor', 'comments', 'deps'] as const;
export type ExemptionKind = (typeof EXEMPTION_KINDS)[number];

export const EXEMPTION_TRAILER = 'Design-Sync-Exempt';

const TRAILER_LINE = new RegExp(`^\\s*(?:<!--\\s*)?${EXEMPTION_TRAILER}:\\s*([^\\s>]+)`, 'gim');

function isKind(value: string): value is ExemptionKind {
  return (EXEMPTION_KINDS as readonly string[]).includes(value);
}

/**
 * The exemption kinds declared in a commit message or changeset body, one per
 * `Design-Sync-Exempt: <kind>` line (anything after the kind is a free-form reason). An unknown kind
 * is an error: a typo must not silently pass or silently fail the check.
 */
export function parseExemptions(text: string, source: string): ExemptionKind[] {
  const kinds: ExemptionKind[] = [];
  for (const match of text.matchAll(TRAILER_LINE)) {
    const value = (match[1] ?? '').toLowerCase();
    if (!isKind(value)) {
      throw new DesignTableError(
        `unknown ${EXEMPTION_TRAILER} kind "${value}" (expected one of ${EXEMPTION_KINDS.join(', ')})`,
        source,
      );
    }
    kinds.push(value);
  }
  return kinds;
}

/** A changeset: the packages in its front matter and the exemptions in its body. */
export interface ChangesetExemption {
  path: string;
  /** Package names without scope; empty for an empty changeset, which covers every package. */
  packages: string[];
  kinds: ExemptionKind[];
}

export function parseChangeset(text: string, path: string): ChangesetExemption {
  const match = /^---\r?\n(?:([\s\S]*?)\r?\n)?---(?:\r?\n|$)([\s\S]*)$/.exec(text);
  if (match === null) throw new DesignTableError('not a changeset (no --- front matter)', path);
  const frontMatter = match[1] ?? '';
  const body = match[2] ?? '';
  const packages = frontMatter
    .split(/\r?\n/)
    .map((line) => /^\s*["']?([^"':\s]+)["']?\s*:/.exec(line)?.[1])
    .filter((name): name is string => name !== undefined)
    .map((name) => name.replace(/^@[^/]+\//, ''));
  return { path, packages, kinds: parseExemptions(body, path) };
}
