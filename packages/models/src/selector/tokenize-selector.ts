import { SelectorParseError } from '../errors.js';

export type SelectorTokenKind =
  | 'label'
  | 'string'
  | 'all'
  | 'global'
  | 'has'
  | 'not'
  | 'and'
  | 'or'
  | 'lparen'
  | 'rparen'
  | 'lbrace'
  | 'rbrace'
  | 'comma'
  | 'equals'
  | 'notEquals'
  | 'in'
  | 'notIn'
  | 'contains'
  | 'startsWith'
  | 'endsWith'
  | 'eof';

/** One token; `value` carries the label name or the string literal's contents. */
export interface SelectorToken {
  kind: SelectorTokenKind;
  position: number;
  value: string;
}

export const MAX_LABEL_LENGTH = 512;
const LABEL = /[A-Za-z0-9_./-]+/y;
const NOT_LABEL_CHAR = '(?![A-Za-z0-9_./-])';

// Checked in order at each position; keyword operators must end at a word boundary and multi-word
// operators allow any run of spaces or tabs (or none) between their words.
const PATTERNS: readonly (readonly [SelectorTokenKind, RegExp])[] = [
  ['all', /all\([ \t]*\)/y],
  ['global', /global\([ \t]*\)/y],
  ['has', /has\([ \t]*([A-Za-z0-9_./-]+)[ \t]*\)/y],
  ['and', /&&/y],
  ['or', /\|\|/y],
  ['equals', /==/y],
  ['notEquals', /!=/y],
  ['not', /!/y],
  ['lparen', /\(/y],
  ['rparen', /\)/y],
  ['lbrace', /\{/y],
  ['rbrace', /\}/y],
  ['comma', /,/y],
  ['notIn', new RegExp(`not[ \\t]*in${NOT_LABEL_CHAR}`, 'y')],
  ['in', new RegExp(`in${NOT_LABEL_CHAR}`, 'y')],
  ['contains', new RegExp(`contains${NOT_LABEL_CHAR}`, 'y')],
  ['startsWith', new RegExp(`starts[ \\t]*with${NOT_LABEL_CHAR}`, 'y')],
  ['endsWith', new RegExp(`ends[ \\t]*with${NOT_LABEL_CHAR}`, 'y')],
];

function checkLabel(text: string, label: string, position: number): void {
  if (label.length > MAX_LABEL_LENGTH) {
    throw new SelectorParseError(`label longer than ${MAX_LABEL_LENGTH} characters`, text, position);
  }
}

/** Sticky matching at `pos`: no slicing of the input per token. */
function execAt(re: RegExp, text: string, pos: number): RegExpExecArray | null {
  re.lastIndex = pos;
  return re.exec(text);
}

function matchPattern(text: string, pos: number): { kind: SelectorTokenKind; match: RegExpExecArray } | undefined {
  for (const [kind, re] of PATTERNS) {
    const match = execAt(re, text, pos);
    if (match !== null) return { kind, match };
  }
  return undefined;
}

/** Split a selector into tokens; the last token is always `eof`. */
export function tokenizeSelector(text: string): SelectorToken[] {
  const tokens: SelectorToken[] = [];
  let pos = 0;
  while (pos < text.length) {
    const ch = text.charAt(pos);
    if (ch === ' ' || ch === '\t') {
      pos++;
      continue;
    }
    if (ch === '"' || ch === "'") {
      // No escapes: the literal ends at the next matching quote.
      const end = text.indexOf(ch, pos + 1);
      if (end < 0) throw new SelectorParseError('unterminated string', text, pos);
      tokens.push({ kind: 'string', position: pos, value: text.slice(pos + 1, end) });
      pos = end + 1;
      continue;
    }
    const hit = matchPattern(text, pos);
    if (hit !== undefined) {
      const { kind, match } = hit;
      const value = kind === 'has' ? (match[1] ?? '') : '';
      if (kind === 'has') checkLabel(text, value, pos + match[0].indexOf(value));
      tokens.push({ kind, position: pos, value });
      pos += match[0].length;
      continue;
    }
    if (text.startsWith('has(', pos)) throw new SelectorParseError('expected a label and ")" after "has("', text, pos + 4);
    const label = execAt(LABEL, text, pos);
    if (label === null) throw new SelectorParseError(`unexpected character ${JSON.stringify(ch)}`, text, pos);
    checkLabel(text, label[0], pos);
    tokens.push({ kind: 'label', position: pos, value: label[0] });
    pos += label[0].length;
  }
  tokens.push({ kind: 'eof', position: text.length, value: '' });
  return tokens;
}
