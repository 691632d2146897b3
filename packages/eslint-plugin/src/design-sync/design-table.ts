import { posix } from 'node:path';
import { DesignTableError } from '../errors.js';

/** One row of design/README.md's package table. */
export interface DesignEntry {
  /** Package name as written in the table (`gc`), without the npm scope. */
  package: string;
  /** Repository-relative path of the design doc (`design/gc.md`). */
  designDoc: string;
  /** Repository-relative globs of the files the doc describes. */
  appliesTo: string[];
  status: string;
  /** CODEOWNERS owners, when the table has an `owner`/`owners` column. */
  owners: string[];
}

const REQUIRED_COLUMNS = ['package', 'design doc', 'applies to', 'status'] as const;

/**
 * Reads the package table (columns package | design doc | applies to | status, in any order, plus an
 * optional owners column) from design/README.md. `readmePath` is repository-relative and resolves the
 * doc links, which are relative to the README.
 */
export function parseDesignTable(markdown: string, readmePath = 'design/README.md'): DesignEntry[] {
  const lines = markdown.split(/\r?\n/);
  for (let i = 0; i + 1 < lines.length; i += 1) {
    const header = splitRow(lines[i] ?? '');
    if (header === undefined || !isSeparator(lines[i + 1] ?? '')) continue;
    const columns = header.map((c) => c.toLowerCase());
    if (!REQUIRED_COLUMNS.every((c) => columns.includes(c))) continue;
    return readRows(lines.slice(i + 2), columns, readmePath);
  }
  throw new DesignTableError(`no table with the columns ${REQUIRED_COLUMNS.join(' | ')}`, readmePath);
}

function readRows(lines: string[], columns: string[], readmePath: string): DesignEntry[] {
  const at = (cells: string[], name: string): string => cells[columns.indexOf(name)] ?? '';
  const ownersColumn = columns.find((c) => c === 'owner' || c === 'owners');
  const entries: DesignEntry[] = [];
  for (const line of lines) {
    const cells = splitRow(line);
    if (cells === undefined) break;
    const pkg = stripMarkup(at(cells, 'package')).replace(/^@[^/]+\//, '');
    const doc = linkTarget(at(cells, 'design doc'));
    const appliesTo = [...at(cells, 'applies to').matchAll(/`([^`]+)`/g)].map((m) => m[1] ?? '');
    const where = `row "${line.trim()}"`;
    if (pkg === '') throw new DesignTableError(`${where} has no package`, readmePath);
    if (doc === undefined) throw new DesignTableError(`${where} has no design doc link`, readmePath);
    if (appliesTo.length === 0) throw new DesignTableError(`${where} has no \`glob\` in "applies to"`, readmePath);
    entries.push({
      package: pkg,
      designDoc: posix.normalize(posix.join(posix.dirname(readmePath), doc)),
      appliesTo,
      status: stripMarkup(at(cells, 'status')).toLowerCase(),
      owners: ownersColumn === undefined ? [] : stripMarkup(at(cells, ownersColumn)).split(/[\s,]+/).filter(Boolean),
    });
  }
  if (entries.length === 0) throw new DesignTableError('the package table has no rows', readmePath);
  return entries;
}

function splitRow(line: string): string[] | undefined {
  const trimmed = line.trim();
  if (!trimmed.startsWith('|')) return undefined;
  return trimmed
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split('|')
    .map((cell) => cell.trim());
}

function isSeparator(line: string): boolean {
  const cells = splitRow(line);
  return cells !== undefined && cells.every((cell) => /^:?-{3,}:?$/.test(cell));
}

function stripMarkup(cell: string): string {
  return cell.replace(/[`*_]/g, '').trim();
}

/** `[gc.md](gc.md)` → `gc.md`; a bare `gc.md` or `` `gc.md` `` also works. */
function linkTarget(cell: string): string | undefined {
  const link = /\]\(([^)\s]+)\)/.exec(cell);
  if (link?.[1] !== undefined) return link[1].replace(/#.*$/, '');
  const bare = stripMarkup(cell);
  return /\.md$/.test(bare) ? bare : undefined;
}
