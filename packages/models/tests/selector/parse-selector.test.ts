import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { SelectorParseError } from '../../src/errors.js';
import { nodeToString } from '../../src/selector/node-to-string.js';
import { parseSelector } from '../../src/selector/parse-selector.js';
import { joinNodes, notNode, type SelectorNode } from '../../src/selector/selector-node.js';

describe('parseSelector', () => {
  it.each<[string, SelectorNode]>([
    ['', { kind: 'all' }],
    ['all()', { kind: 'all' }],
    ['all( )', { kind: 'all' }],
    ['global()', { kind: 'global' }],
    ['has(a.b/c-d_e)', { kind: 'has', label: 'a.b/c-d_e' }],
    ['has( a )', { kind: 'has', label: 'a' }],
    ['a=="b"', { kind: 'equals', label: 'a', value: 'b' }],
    ["a != 'x\"y'", { kind: 'notEquals', label: 'a', value: 'x"y' }],
    ['a in {"x",}', { kind: 'in', label: 'a', values: ['x'] }],
    ['a in{}', { kind: 'in', label: 'a', values: [] }],
    ['a notin {"x", "y"}', { kind: 'notIn', label: 'a', values: ['x', 'y'] }],
    ['a contains "s"', { kind: 'contains', label: 'a', value: 's' }],
    ['a startswith"s"', { kind: 'startsWith', label: 'a', value: 's' }],
    ['a ends\twith "s"', { kind: 'endsWith', label: 'a', value: 's' }],
    ['!has(a)', { kind: 'not', operand: { kind: 'has', label: 'a' } }],
    ['!!has(a)', { kind: 'has', label: 'a' }],
    [
      'has(a) || has(b) && has(c)',
      { kind: 'or', operands: [{ kind: 'has', label: 'a' }, { kind: 'and', operands: [{ kind: 'has', label: 'b' }, { kind: 'has', label: 'c' }] }] },
    ],
    [
      '!has(a) && has(b)',
      { kind: 'and', operands: [{ kind: 'not', operand: { kind: 'has', label: 'a' } }, { kind: 'has', label: 'b' }] },
    ],
  ])('parses %j', (text, root) => {
    expect(parseSelector(text).root).toEqual(root);
  });

  it('accepts a label of 512 characters and labels that start like keywords', () => {
    expect(parseSelector(`has(${'x'.repeat(512)})`).root).toEqual({ kind: 'has', label: 'x'.repeat(512) });
    expect(parseSelector('index == "1" && contained == "2"').toString()).toBe('index == "1" && contained == "2"');
    expect(parseSelector('all == "x"').root).toEqual({ kind: 'equals', label: 'all', value: 'x' });
  });
});

describe('parseSelector errors', () => {
  it.each<[string, number]>([
    ['a ==', 4],
    ['a == b', 5],
    ['a', 1],
    ['has(', 4],
    ['has()', 4],
    ['has(a', 4],
    ['a in {"x"', 9],
    ['a in {"x" "y"}', 10],
    ['a in {,}', 6],
    ['a in {"x",,}', 10],
    ['a in "x"', 5],
    ['(has(a)', 7],
    ['has(a))', 6],
    ['&& has(a)', 0],
    ['has(a) &&', 9],
    ['has(a) ||| has(b)', 9],
    ['a == "x', 5],
    ["a == 'x\"", 5],
    ['a ~ "x"', 2],
    ['all() all()', 6],
    ['has(a) has(b)', 7],
    ['a = "x"', 2],
    ['a\n== "x"', 1],
    ['!', 1],
    ['()', 1],
    ['a in {"x"} extra', 11],
    [`${'y'.repeat(513)} == "x"`, 0],
    [`has(${'y'.repeat(513)})`, 4],
  ])('rejects %j at position %i', (text, position) => {
    let caught: unknown;
    try {
      parseSelector(text);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(SelectorParseError);
    expect((caught as SelectorParseError).position).toBe(position);
    expect((caught as SelectorParseError).selector).toBe(text);
    expect((caught as SelectorParseError).message).toContain(`at position ${position}`);
  });
});

describe('a parsed selector\'s toString', () => {
  it.each([
    ['', 'all()'],
    ['  has( a )  ', 'has(a)'],
    ["a=='b'", 'a == "b"'],
    ["a == 'say \"hi\"'", `a == 'say "hi"'`],
    ['a in {"x","y",}', 'a in {"x", "y"}'],
    ['a notin {}', 'a not in {}'],
    ['a startswith "p"', 'a starts with "p"'],
    ['a endswith "p"', 'a ends with "p"'],
    ['(has(a) || has(b)) && has(c)', '(has(a) || has(b)) && has(c)'],
    ['has(a) || (has(b) && has(c))', 'has(a) || has(b) && has(c)'],
    ['(has(a) && has(b)) && has(c)', 'has(a) && has(b) && has(c)'],
    ['!(has(a) || has(b))', '!(has(a) || has(b))'],
    ['!!!has(a)', '!has(a)'],
    ['!a == "b"', '!a == "b"'],
  ])('writes %j as %j', (text, canonical) => {
    expect(parseSelector(text).toString()).toBe(canonical);
  });
});

/** Random selector trees over a small label alphabet, for round-trip properties. */
const labelName = fc.constantFrom('a', 'b', 'app', 'k8s.io/os');
const value = fc.constantFrom('', 'x', 'web', 'a b', 'it"s', "it's");
const leaf: fc.Arbitrary<SelectorNode> = fc.oneof(
  fc.constant<SelectorNode>({ kind: 'all' }),
  labelName.map((label): SelectorNode => ({ kind: 'has', label })),
  fc
    .tuple(fc.constantFrom('equals', 'notEquals', 'contains', 'startsWith', 'endsWith' as const), labelName, value)
    .map(([kind, label, v]): SelectorNode => ({ kind, label, value: v })),
  fc
    .tuple(fc.constantFrom('in', 'notIn' as const), labelName, fc.array(value, { maxLength: 3 }))
    .map(([kind, label, values]): SelectorNode => ({ kind, label, values })),
);
const tree = fc.letrec<{ node: SelectorNode }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    tie('node').map((operand): SelectorNode => ({ kind: 'not', operand })),
    fc.array(tie('node'), { minLength: 2, maxLength: 3 }).map((operands): SelectorNode => ({ kind: 'and', operands })),
    fc.array(tie('node'), { minLength: 2, maxLength: 3 }).map((operands): SelectorNode => ({ kind: 'or', operands })),
  ),
})).node;
const labelMap = fc.dictionary(labelName, value, { maxKeys: 4 });

function reference(node: SelectorNode, labels: Record<string, string>): boolean {
  const v = Object.hasOwn(labels, 'label' in node ? node.label : '') && 'label' in node ? labels[node.label] : undefined;
  switch (node.kind) {
    case 'all':
    case 'global':
      return true;
    case 'has':
      return v !== undefined;
    case 'equals':
      return v === node.value;
    case 'notEquals':
      return v !== node.value;
    case 'contains':
      return v !== undefined && v.includes(node.value);
    case 'startsWith':
      return v !== undefined && v.startsWith(node.value);
    case 'endsWith':
      return v !== undefined && v.endsWith(node.value);
    case 'in':
      return v !== undefined && node.values.includes(v);
    case 'notIn':
      return v === undefined || !node.values.includes(v);
    case 'not':
      return !reference(node.operand, labels);
    case 'and':
      return node.operands.every((o) => reference(o, labels));
    case 'or':
      return node.operands.some((o) => reference(o, labels));
  }
}

/** A tree built in code in the form the parser produces: negations collapsed, nested and/or flattened. */
function normalizeNode(node: SelectorNode): SelectorNode {
  if (node.kind === 'not') return notNode(normalizeNode(node.operand));
  if (node.kind === 'and' || node.kind === 'or') return joinNodes(node.kind, node.operands.map(normalizeNode));
  return node;
}

describe('selector round trips (property)', () => {
  it('printing then parsing keeps the meaning, and printing is a fixed point', () => {
    fc.assert(
      fc.property(tree, labelMap, (node, labels) => {
        const normal = normalizeNode(node);
        const text = nodeToString(normal);
        const reparsed = parseSelector(text);
        expect(reparsed.toString()).toBe(text);
        expect(reparsed.root).toEqual(normal);
        expect(reparsed.evaluate(labels)).toBe(reference(node, labels));
      }),
      { numRuns: 500 },
    );
  });
});
