import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { isHintCidr, isHintKey } from '../config/name-chars.js';

/**
 * The IPAM client's read hints kept between plugin calls (design/cni.md, "Read hints between
 * calls"): per owner and family, the affine blocks the last AutoAssign visited, so that a fresh
 * process reads its block with its context instead of one round trip later. Hints only: whatever
 * the file says, every block is checked against the stored affinities, so a stale, foreign or
 * damaged file costs at most a wasted read, never a wrong allocation.
 */
export interface AffineHintsFile {
  readonly path: string;
  /** The map handed to the client, which keeps it current. */
  readonly hints: Map<string, string[]>;
  /** The text read, so that an unchanged map is not written again. */
  readonly text: string;
}

/** What is read back at most: a node has one owner per family, a LoadBalancer owner a few more. */
const MAX_TEXT_BYTES = 16 * 1024;
const MAX_ENTRIES = 16;
const MAX_CIDRS = 8;

/** The hints a file's text holds; whatever is not well formed is left out. */
export function parseAffineHints(text: string): Map<string, string[]> {
  const hints = new Map<string, string[]>();
  if (text.length === 0 || text.length > MAX_TEXT_BYTES) return hints;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return hints;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return hints;
  for (const [key, value] of Object.entries(parsed)) {
    if (hints.size >= MAX_ENTRIES) break;
    if (!isHintKey(key) || !Array.isArray(value)) continue;
    const cidrs = value.filter((v): v is string => typeof v === 'string' && isHintCidr(v)).slice(0, MAX_CIDRS);
    if (cidrs.length > 0) hints.set(key, cidrs);
  }
  return hints;
}

/** The hints at `path`; none when the file is missing or unreadable. */
export function loadAffineHints(path: string): AffineHintsFile {
  let text = '';
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    // No file yet (the first call), or one we may not read: start without hints.
  }
  return { path, hints: parseAffineHints(text), text };
}

/**
 * Writes the hints back when they changed: a new file beside the old one, renamed over it, so a
 * concurrent reader sees the old hints or the new, never half of either. Readable by its owner only.
 */
export function saveAffineHints(file: AffineHintsFile): void {
  const text = JSON.stringify(Object.fromEntries(file.hints));
  if (text === file.text) return;
  const temporary = `${file.path}.${process.pid}.tmp`;
  try {
    writeFileSync(temporary, text, { mode: 0o600 });
    renameSync(temporary, file.path);
  } catch (err) {
    rmSync(temporary, { force: true });
    throw err;
  }
}
