import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Http1ProtocolError, MAX_HEAD_BYTES, ResponseParser, type Http1Response } from '../../src/http1/index.js';

/** Feeds `pieces` one by one; the response once complete (ending the stream when `close`). */
function parse(pieces: readonly (string | Buffer)[], close = false): Http1Response | undefined {
  const parser = new ResponseParser();
  let response: Http1Response | undefined;
  for (const piece of pieces) response = parser.push(typeof piece === 'string' ? Buffer.from(piece, 'latin1') : piece) ?? response;
  return close ? parser.end() : response;
}

function splitAt(text: Buffer, cuts: readonly number[]): Buffer[] {
  const at = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
  const out: Buffer[] = [];
  let from = 0;
  for (const c of at) {
    out.push(text.subarray(from, c));
    from = c;
  }
  out.push(text.subarray(from));
  return out;
}

function chunked(body: Buffer, sizes: readonly number[]): Buffer {
  const parts: Buffer[] = [];
  let from = 0;
  for (const size of sizes) {
    if (from >= body.length) break;
    const piece = body.subarray(from, from + Math.max(1, size));
    parts.push(Buffer.from(`${piece.length.toString(16)};ext=1\r\n`, 'latin1'), piece, Buffer.from('\r\n'));
    from += piece.length;
  }
  if (from < body.length) parts.push(Buffer.from(`${(body.length - from).toString(16)}\r\n`), body.subarray(from), Buffer.from('\r\n'));
  parts.push(Buffer.from('0\r\nx-trailer: yes\r\n\r\n'));
  return Buffer.concat(parts);
}

describe('ResponseParser', () => {
  it.each<[string, readonly string[], boolean, { status: number; body: string; keepAlive: boolean }]>([
    ['content-length', ['HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n{}'], false, { status: 200, body: '{}', keepAlive: true }],
    ['no reason phrase', ['HTTP/1.1 204\r\n\r\n'], false, { status: 204, body: '', keepAlive: true }],
    ['connection: close', ['HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 3\r\n\r\nnah'], false, { status: 404, body: 'nah', keepAlive: false }],
    ['chunked', ['HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n'], false, { status: 200, body: 'abcde', keepAlive: true }],
    ['body until close', ['HTTP/1.1 200 OK\r\n\r\nsome', ' more'], true, { status: 200, body: 'some more', keepAlive: false }],
    ['HTTP/1.0', ['HTTP/1.0 200 OK\r\ncontent-length: 1\r\n\r\nx'], false, { status: 200, body: 'x', keepAlive: false }],
    ['100 Continue first', ['HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 201 Created\r\ncontent-length: 0\r\n\r\n'], false, { status: 201, body: '', keepAlive: true }],
    ['zero length', ['HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n'], false, { status: 200, body: '', keepAlive: true }],
  ])('parses a response with %s', (_name, pieces, close, want) => {
    const r = parse(pieces, close);
    expect(r === undefined ? undefined : { status: r.status, body: r.body.toString('latin1'), keepAlive: r.keepAlive }).toEqual(want);
  });

  it('joins repeated headers and lower-cases names', () => {
    const r = parse(['HTTP/1.1 200 OK\r\nX-A: 1\r\nx-a: 2\r\nContent-Length: 0\r\n\r\n']);
    expect(r?.headers.get('x-a')).toBe('1, 2');
  });

  it.each<[string, readonly string[], boolean]>([
    ['not HTTP', ['SSH-2.0-OpenSSH\r\n\r\n'], false],
    ['a malformed header', ['HTTP/1.1 200 OK\r\nno colon here\r\n\r\n'], false],
    ['conflicting lengths', ['HTTP/1.1 200 OK\r\ncontent-length: 1, 2\r\n\r\n'], false],
    ['a malformed chunk size', ['HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\nzz\r\n'], false],
    ['a chunk without its CRLF', ['HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n1\r\naXY'], false],
    ['bytes after the answer', ['HTTP/1.1 200 OK\r\ncontent-length: 1\r\n\r\nab'], false],
    ['a body cut short', ['HTTP/1.1 200 OK\r\ncontent-length: 10\r\n\r\nabc'], true],
    ['a head cut short', ['HTTP/1.1 200 OK\r\ncontent-'], true],
    ['a huge announced body', ['HTTP/1.1 200 OK\r\ncontent-length: 999999999999999\r\n\r\n'], false],
  ])('refuses %s', (_name, pieces, close) => {
    expect(() => parse(pieces, close)).toThrow(Http1ProtocolError);
  });

  it('refuses a head longer than its limit without waiting for its end', () => {
    const parser = new ResponseParser();
    expect(() => parser.push(Buffer.from(`HTTP/1.1 200 OK\r\nx: ${'a'.repeat(MAX_HEAD_BYTES)}`))).toThrow(/longer than/);
  });

  it('gives the same response however the bytes are split (content-length and chunked)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 3000 }), fc.array(fc.nat(), { maxLength: 8 }), fc.array(fc.integer({ min: 1, max: 700 }), { maxLength: 6 }), fc.boolean(), (bodyBytes, cuts, sizes, useChunks) => {
        const body = Buffer.from(bodyBytes);
        const wire = useChunks
          ? Buffer.concat([Buffer.from('HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n'), chunked(body, sizes)])
          : Buffer.concat([Buffer.from(`HTTP/1.1 200 OK\r\ncontent-length: ${body.length}\r\n\r\n`), body]);
        const r = parse(splitAt(wire, cuts));
        return r !== undefined && r.status === 200 && r.keepAlive && r.body.equals(body);
      }),
      { numRuns: 300 },
    );
  });
});
