import { describe, expect, it } from 'vitest';
import { prettyJson } from '../../src/format/pretty-json.js';
import { renderTable } from '../../src/format/render-table.js';

describe('renderTable', () => {
  it('pads to the widest cell, aligns right where asked and rules the header and the end', () => {
    expect(renderTable([{ header: 'name' }, { header: 'N', align: 'right' }], [['a', '1'], ['bbb', '22']])).toBe(
      ['+------+----+', '| NAME | N  |', '+------+----+', '| a    |  1 |', '| bbb  | 22 |', '+------+----+', ''].join('\n'),
    );
  });

  it('renders the header block of an empty table', () => {
    expect(renderTable([{ header: 'IP' }], [])).toBe('+----+\n| IP |\n+----+\n+----+\n');
  });
});

describe('prettyJson', () => {
  it('writes bigints as exact JSON numbers with two-space indentation', () => {
    expect(prettyJson({ a: 1735787045123456799n, b: [true, null], c: {}, d: undefined })).toBe(
      '{\n  "a": 1735787045123456799,\n  "b": [\n    true,\n    null\n  ],\n  "c": {}\n}\n',
    );
  });
});
