import { SelectorParseError } from '../errors.js';
import { evaluateNode } from './evaluate-node.js';
import { joinNodes, notNode, type SelectorNode, type SetComparisonKind, type StringComparisonKind } from './selector-node.js';
import { nodeToString } from './node-to-string.js';
import { tokenizeSelector, type SelectorToken, type SelectorTokenKind } from './tokenize-selector.js';

/** A parsed selector: immutable, safe to cache and share. */
export interface Selector {
  readonly root: SelectorNode;
  /** True when the labels satisfy the selector. */
  evaluate(labels: Readonly<Record<string, string>>): boolean;
  /** Canonical text; parsing it gives an equivalent selector. */
  toString(): string;
}

class ParsedSelector implements Selector {
  constructor(readonly root: SelectorNode) {}
  evaluate(labels: Readonly<Record<string, string>>): boolean {
    return evaluateNode(this.root, labels);
  }
  toString(): string {
    return nodeToString(this.root);
  }
}

const STRING_OPERATORS: Partial<Record<SelectorTokenKind, StringComparisonKind>> = {
  equals: 'equals',
  notEquals: 'notEquals',
  contains: 'contains',
  startsWith: 'startsWith',
  endsWith: 'endsWith',
};
const SET_OPERATORS: Partial<Record<SelectorTokenKind, SetComparisonKind>> = { in: 'in', notIn: 'notIn' };

const DESCRIBE: Record<SelectorTokenKind, string> = {
  label: 'a label',
  string: 'a string',
  all: '"all()"',
  global: '"global()"',
  has: '"has(…)"',
  not: '"!"',
  and: '"&&"',
  or: '"||"',
  lparen: '"("',
  rparen: '")"',
  lbrace: '"{"',
  rbrace: '"}"',
  comma: '","',
  equals: '"=="',
  notEquals: '"!="',
  in: '"in"',
  notIn: '"not in"',
  contains: '"contains"',
  startsWith: '"starts with"',
  endsWith: '"ends with"',
  eof: 'end of input',
};

/** Recursive descent over the token list; precedence `!` > `&&` > `||` (design/calico-ipam.md#selectors). */
class Parser {
  private index = 0;
  constructor(
    private readonly text: string,
    private readonly tokens: readonly SelectorToken[],
  ) {}

  private peek(): SelectorToken {
    // The tokenizer always ends the list with `eof`, and the parser never moves past it.
    return this.tokens[Math.min(this.index, this.tokens.length - 1)] as SelectorToken;
  }

  private next(): SelectorToken {
    const token = this.peek();
    if (token.kind !== 'eof') this.index++;
    return token;
  }

  private fail(expected: string, token: SelectorToken): never {
    throw new SelectorParseError(`expected ${expected} but found ${DESCRIBE[token.kind]}`, this.text, token.position);
  }

  private expect(kind: SelectorTokenKind): SelectorToken {
    const token = this.next();
    if (token.kind !== kind) this.fail(DESCRIBE[kind], token);
    return token;
  }

  parseAll(): SelectorNode {
    if (this.peek().kind === 'eof') return { kind: 'all' };
    const node = this.parseOr();
    const rest = this.peek();
    if (rest.kind !== 'eof') this.fail('"&&", "||" or end of input', rest);
    return node;
  }

  private parseOr(): SelectorNode {
    const operands = [this.parseAnd()];
    while (this.peek().kind === 'or') {
      this.next();
      operands.push(this.parseAnd());
    }
    return joinNodes('or', operands);
  }

  private parseAnd(): SelectorNode {
    const operands = [this.parseUnary()];
    while (this.peek().kind === 'and') {
      this.next();
      operands.push(this.parseUnary());
    }
    return joinNodes('and', operands);
  }

  private parseUnary(): SelectorNode {
    if (this.peek().kind === 'not') {
      this.next();
      return notNode(this.parseUnary());
    }
    return this.parsePrimary();
  }

  private parsePrimary(): SelectorNode {
    const token = this.next();
    switch (token.kind) {
      case 'lparen': {
        const inner = this.parseOr();
        this.expect('rparen');
        return inner;
      }
      case 'all':
        return { kind: 'all' };
      case 'global':
        return { kind: 'global' };
      case 'has':
        return { kind: 'has', label: token.value };
      case 'label':
        return this.parseComparison(token.value);
      default:
        return this.fail('a label, "has(…)", "all()", "global()", "!" or "("', token);
    }
  }

  private parseComparison(label: string): SelectorNode {
    const op = this.next();
    const stringKind = STRING_OPERATORS[op.kind];
    if (stringKind !== undefined) {
      return { kind: stringKind, label, value: this.expect('string').value };
    }
    const setKind = SET_OPERATORS[op.kind];
    if (setKind !== undefined) {
      return { kind: setKind, label, values: this.parseSet() };
    }
    return this.fail('an operator (==, !=, in, not in, contains, starts with, ends with)', op);
  }

  /** `{` then strings separated by `,`, a trailing comma allowed, then `}`. */
  private parseSet(): string[] {
    this.expect('lbrace');
    const values: string[] = [];
    for (;;) {
      const token = this.next();
      if (token.kind === 'rbrace') return values;
      if (token.kind !== 'string') this.fail('a string or "}"', token);
      values.push(token.value);
      const sep = this.next();
      if (sep.kind === 'rbrace') return values;
      if (sep.kind !== 'comma') this.fail('"," or "}"', sep);
    }
  }
}

/** Parse a Calico selector; the empty selector matches everything. Throws SelectorParseError. */
export function parseSelector(text: string): Selector {
  return new ParsedSelector(new Parser(text, tokenizeSelector(text)).parseAll());
}

