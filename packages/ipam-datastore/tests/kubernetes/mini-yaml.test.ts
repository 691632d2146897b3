import { describe, expect, it } from 'vitest';
import { MiniYamlError, parseMiniYaml } from '../../src/kubeconfig/index.js';

describe('parseMiniYaml', () => {
  it('parses nested maps, both list indentation styles, quotes and comments', () => {
    expect(parseMiniYaml('a:\n  b: 1\n  c:\n  - x\n  - y: z\nd: "q"\ne: \'it\'\'s\'   \nf: v # note\ng: true\n')).toEqual({
      a: { b: '1', c: ['x', { y: 'z' }] },
      d: 'q',
      e: "it's",
      f: 'v',
      g: true,
    });
  });

  it.each([
    ['k: [a, b]\n', 1, 'block or flow style'],
    ['a:\n  b: |\n    text\n', 2, 'block or flow style'],
    ['a: 1\n\tb: 2\n', 2, 'tab indentation'],
    ['a:\n  b: 1\n    c: 2\n', 3, 'unexpected indentation'],
    ['a: "unterminated\n', 1, 'double-quoted scalar'],
  ])('refuses %j at line %i with a fixed description', (text, line, problem) => {
    let caught: unknown;
    try {
      parseMiniYaml(text);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(MiniYamlError);
    expect(caught).toMatchObject({ line, problem, message: `unsupported YAML at line ${line} (${problem})` });
  });
});
