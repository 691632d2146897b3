import fc from 'fast-check';
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

  it('cuts lines at LF and CRLF, and counts lines as before', () => {
    expect(parseMiniYaml('a: 1\r\nb: 2\r\r\nc: 3\n')).toEqual({ a: '1', b: '2', c: '3' });
    expect(() => parseMiniYaml('a: 1\rb: 2\n')).toThrow(MiniYamlError);
    expect(() => parseMiniYaml('a: 1\r\n  \tb: 2\r\n')).toThrow(expect.objectContaining({ line: 2, problem: 'tab indentation' }));
  });

  it('reads any text as it did when it cut lines with a regular expression', () => {
    const byExpression = (text: string): unknown => {
      try {
        const seen: string[] = [];
        text.split(/\r?\n/).forEach((raw, i) => {
          if (/^ *\t/.test(raw)) throw new MiniYamlError(i + 1, 'tab indentation');
          seen.push(raw);
        });
        return parseMiniYaml(seen.join('\n'));
      } catch (err) {
        return err instanceof MiniYamlError ? { line: err.line, problem: err.problem } : 'other';
      }
    };
    const direct = (text: string): unknown => {
      try {
        return parseMiniYaml(text);
      } catch (err) {
        return err instanceof MiniYamlError ? { line: err.line, problem: err.problem } : 'other';
      }
    };
    const piece = fc.constantFrom('a:', ' b: 1', '  c: x', '\t', ' \t', '\r', '\n', '\r\n', '- ', 'k', ': ', '#', '"q"');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 24 }).map((p) => p.join('')), (text) => {
        expect(direct(text)).toStrictEqual(byExpression(text));
      }),
      { numRuns: 4000 },
    );
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
