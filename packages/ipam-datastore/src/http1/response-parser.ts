/**
 * An incremental parser of one HTTP/1.1 response (design/ipam-datastore.md, "A small HTTP/1.1
 * client"): the status line and headers, then a body framed by `content-length`, by chunked
 * transfer coding, or by the end of the connection. Pure: bytes in, one response out.
 */

export interface Http1Response {
  readonly status: number;
  /** Header names in lower case; repeated headers joined with ", ". */
  readonly headers: ReadonlyMap<string, string>;
  readonly body: Buffer;
  /** The connection may carry another request (HTTP/1.1 without `connection: close`, body framed). */
  readonly keepAlive: boolean;
}

/** The peer sent something that is not an HTTP/1.1 response, or stopped in the middle of one. */
export class Http1ProtocolError extends Error {
  constructor(message: string, readonly code = 'HPE_INVALID') {
    super(message);
    this.name = 'Http1ProtocolError';
  }
}

/**
 * A header name: HTTP's token characters. An expression: it runs on every header of every response,
 * where the interpreter's loop over the characters cost more than its compilation (design/ipam-datastore.md,
 * "Regular expressions off the request path").
 */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const EMPTY = Buffer.alloc(0);
const HEAD_END = Buffer.from('\r\n\r\n', 'latin1');
const CRLF = Buffer.from('\r\n', 'latin1');
/** Larger heads than this are refused: no API server sends them, a broken peer might. */
export const MAX_HEAD_BYTES = 64 * 1024;
const MAX_CHUNK_LINE_BYTES = 1024;

/** Larger bodies than this are refused before any memory is set aside for them. */
export const MAX_BODY_BYTES = 512 * 1024 * 1024;

type State =
  | { readonly kind: 'head' }
  | { readonly kind: 'fixed'; readonly body: Buffer; filled: number }
  | { readonly kind: 'chunk-size' }
  | { readonly kind: 'chunk-data'; left: number }
  | { readonly kind: 'chunk-end' }
  | { readonly kind: 'trailers' }
  | { readonly kind: 'until-close' }
  | { readonly kind: 'done' };

export class ResponseParser {
  private pending: Buffer = EMPTY;
  private state: State = { kind: 'head' };
  private status = 0;
  private headers = new Map<string, string>();
  private keepAlive = false;
  private readonly parts: Buffer[] = [];
  private partBytes = 0;
  private response: Http1Response | undefined;

  /** Feeds the next bytes; the response once its last byte has arrived. */
  push(chunk: Buffer): Http1Response | undefined {
    if (chunk.length === 0) return this.response;
    if (this.response !== undefined) throw new Http1ProtocolError('the server sent bytes after the end of its answer');
    this.pending = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    while (this.step());
    const response = this.completed();
    if (response !== undefined && this.pending.length > 0) throw new Http1ProtocolError('the server sent bytes after the end of its answer');
    return response;
  }

  /** The response, once `step` has completed it. */
  private completed(): Http1Response | undefined {
    return this.response;
  }

  /** The connection ended: the response if the end completes it, else an error. */
  end(): Http1Response {
    if (this.state.kind === 'until-close') this.finish(Buffer.concat(this.parts), false);
    if (this.response === undefined) throw new Http1ProtocolError('the connection closed before the whole answer arrived', 'ECONNRESET');
    return this.response;
  }

  /** One state transition; true while there may be more to do with the pending bytes. */
  private step(): boolean {
    const state = this.state;
    switch (state.kind) {
      case 'head':
        return this.readHead();
      case 'fixed': {
        const n = Math.min(state.body.length - state.filled, this.pending.length);
        this.pending.copy(state.body, state.filled, 0, n);
        state.filled += n;
        this.pending = this.pending.subarray(n);
        if (state.filled === state.body.length) this.finish(state.body, this.keepAlive);
        return false;
      }
      case 'chunk-size': {
        const line = this.takeLine(MAX_CHUNK_LINE_BYTES, 'chunk size line');
        if (line === undefined) return false;
        const size = line.split(';', 1)[0]?.trim() ?? '';
        if (!isHexNumber(size, 12)) throw new Http1ProtocolError('the server sent a malformed chunk size');
        const left = Number.parseInt(size, 16);
        this.state = left === 0 ? { kind: 'trailers' } : { kind: 'chunk-data', left };
        return true;
      }
      case 'chunk-data': {
        const n = Math.min(state.left, this.pending.length);
        if (n === 0) return false;
        this.keepPart(this.pending.subarray(0, n));
        this.pending = this.pending.subarray(n);
        state.left -= n;
        if (state.left === 0) this.state = { kind: 'chunk-end' };
        return true;
      }
      case 'chunk-end': {
        if (this.pending.length < 2) return false;
        if (this.pending[0] !== CRLF[0] || this.pending[1] !== CRLF[1]) throw new Http1ProtocolError('a chunk did not end with CRLF');
        this.pending = this.pending.subarray(2);
        this.state = { kind: 'chunk-size' };
        return true;
      }
      case 'trailers': {
        const line = this.takeLine(MAX_HEAD_BYTES, 'trailer');
        if (line === undefined) return false;
        if (line === '') this.finish(Buffer.concat(this.parts), this.keepAlive);
        return line !== '';
      }
      case 'until-close':
        this.keepPart(this.pending);
        this.pending = EMPTY;
        return false;
      case 'done':
        return false;
    }
  }

  /** A copy of body bytes (the read buffer they arrived in is not ours to keep). */
  private keepPart(bytes: Buffer): void {
    this.partBytes += bytes.length;
    if (this.partBytes > MAX_BODY_BYTES) throw new Http1ProtocolError(`the server sent a body of more than ${MAX_BODY_BYTES} bytes`);
    this.parts.push(Buffer.from(bytes));
  }

  private takeLine(limit: number, what: string): string | undefined {
    const at = this.pending.indexOf(CRLF);
    if (at < 0) {
      if (this.pending.length > limit) throw new Http1ProtocolError(`the server sent a ${what} longer than ${limit} bytes`);
      return undefined;
    }
    const line = this.pending.subarray(0, at).toString('latin1');
    this.pending = this.pending.subarray(at + 2);
    return line;
  }

  private readHead(): boolean {
    const at = this.pending.indexOf(HEAD_END);
    if (at < 0 ? this.pending.length > MAX_HEAD_BYTES : at > MAX_HEAD_BYTES) {
      throw new Http1ProtocolError(`the server sent a response head longer than ${MAX_HEAD_BYTES} bytes`);
    }
    if (at < 0) return false;
    const lines = this.pending.subarray(0, at).toString('latin1').split('\r\n');
    this.pending = this.pending.subarray(at + HEAD_END.length);
    const statusLine = parseStatusLine(lines[0] ?? '');
    if (statusLine === undefined) throw new Http1ProtocolError('the server did not answer with an HTTP/1.x status line');
    const { minor } = statusLine;
    this.status = statusLine.status;
    this.headers = new Map();
    for (const line of lines.slice(1)) {
      const colon = line.indexOf(':');
      const name = colon < 0 ? '' : line.slice(0, colon).toLowerCase();
      if (!HEADER_NAME.test(name)) throw new Http1ProtocolError('the server sent a malformed header line');
      const value = line.slice(colon + 1).trim();
      const prior = this.headers.get(name);
      this.headers.set(name, prior === undefined ? value : `${prior}, ${value}`);
    }
    // An interim answer (100 Continue and the like): the real one follows on the same connection.
    if (this.status >= 100 && this.status < 200 && this.status !== 101) return true;
    const connection = (this.headers.get('connection') ?? '').toLowerCase();
    this.keepAlive = minor === '1' ? !hasWord(connection, 'close') : hasWord(connection, 'keep-alive');
    this.state = this.bodyState();
    if (this.state.kind === 'done') this.finish(EMPTY, this.keepAlive);
    return this.state.kind !== 'done';
  }

  private bodyState(): State {
    if (this.status === 204 || this.status === 304 || this.status < 200) return { kind: 'done' };
    const coding = this.headers.get('transfer-encoding');
    if (coding !== undefined) {
      const last = coding.split(',').pop()?.trim().toLowerCase();
      if (last === 'chunked') return { kind: 'chunk-size' };
      this.keepAlive = false;
      return { kind: 'until-close' };
    }
    const length = this.headers.get('content-length');
    if (length === undefined) {
      this.keepAlive = false;
      return { kind: 'until-close' };
    }
    const values = new Set(length.split(',').map((v) => v.trim()));
    const [only] = values;
    if (values.size !== 1 || only === undefined || !isDecimal(only, 15)) throw new Http1ProtocolError('the server sent a malformed content-length');
    const size = Number(only);
    if (size > MAX_BODY_BYTES) throw new Http1ProtocolError(`the server announced a body of ${size} bytes (more than ${MAX_BODY_BYTES})`);
    if (size === 0) return { kind: 'done' };
    return { kind: 'fixed', body: Buffer.allocUnsafe(size), filled: 0 };
  }

  private finish(body: Buffer, keepAlive: boolean): void {
    this.state = { kind: 'done' };
    this.response = { status: this.status, headers: this.headers, body, keepAlive };
  }
}

// The head is read by hand, not with regular expressions: each expression costs a short-lived
// process its compilation, which is more than the few heads it reads (design/ipam-datastore.md,
// "A small HTTP/1.1 client").

const isDigitCode = (c: number): boolean => c >= 0x30 && c <= 0x39;

/** `text` is 1 to `maxDigits` hexadecimal digits, either case (a chunk size). */
export function isHexNumber(text: string, maxDigits: number): boolean {
  if (text.length === 0 || text.length > maxDigits) return false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (!isDigitCode(c) && !(c >= 0x41 && c <= 0x46) && !(c >= 0x61 && c <= 0x66)) return false;
  }
  return true;
}

/** `text` is 1 to `maxDigits` ASCII decimal digits. */
export function isDecimal(text: string, maxDigits: number): boolean {
  if (text.length === 0 || text.length > maxDigits) return false;
  for (let i = 0; i < text.length; i += 1) if (!isDigitCode(text.charCodeAt(i))) return false;
  return true;
}

/** `HTTP/1.<0|1> <3 digits>[ <reason without line breaks>]`: the minor version and the status, or undefined. */
export function parseStatusLine(line: string): { readonly minor: '0' | '1'; readonly status: number } | undefined {
  if (!line.startsWith('HTTP/1.') || line.length < 12) return undefined;
  const minor = line[7];
  if ((minor !== '0' && minor !== '1') || line[8] !== ' ') return undefined;
  const code = line.slice(9, 12);
  if (!isDecimal(code, 3)) return undefined;
  if (line.length > 12) {
    if (line[12] !== ' ') return undefined;
    for (let i = 13; i < line.length; i += 1) {
      const c = line.charCodeAt(i);
      if (c === 0x0a || c === 0x0d || c === 0x2028 || c === 0x2029) return undefined;
    }
  }
  return { minor, status: Number(code) };
}

const isWordCode = (c: number): boolean => isDigitCode(c) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f;

/** `word` occurs in `text` between word boundaries, as `\bword\b` finds it (`word` starts and ends with a word character). */
export function hasWord(text: string, word: string): boolean {
  for (let at = text.indexOf(word); at >= 0; at = text.indexOf(word, at + 1)) {
    const end = at + word.length;
    if ((at === 0 || !isWordCode(text.charCodeAt(at - 1))) && (end === text.length || !isWordCode(text.charCodeAt(end)))) return true;
  }
  return false;
}
