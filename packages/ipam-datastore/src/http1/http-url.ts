/**
 * The parts of an absolute http(s) URL a request needs. A WHATWG `URL` has them all; so has what
 * {@link parseHttpUrl} returns for the plain forms servers and endpoints are written in.
 */
export type HttpUrl = Pick<URL, 'protocol' | 'host' | 'hostname' | 'port' | 'pathname' | 'search' | 'hash' | 'username' | 'password'>;

const DEFAULT_PORT: Readonly<Record<string, string>> = { 'http:': '80', 'https:': '443' };

/** The parts of a plain URL, as the grammar below splits them. */
interface PlainParts {
  readonly protocol: string;
  readonly hostname: string;
  readonly writtenPort: string | undefined;
  readonly path: string;
  readonly query: string | undefined;
}

const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;
const isLowerAlnumOrDash = (c: number): boolean => (c >= 0x61 && c <= 0x7a) || isDigit(c) || c === 0x2d;
/** A path character WHATWG parsing keeps as written: letters, digits and `-._~!$&()*+,;=:@%`. */
function isPathChar(c: number): boolean {
  if ((c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || isDigit(c)) return true;
  return c === 0x2d || c === 0x2e || c === 0x5f || c === 0x7e || c === 0x21 || c === 0x24 || c === 0x26 || (c >= 0x28 && c <= 0x2c) || c === 0x3b || c === 0x3d || c === 0x3a || c === 0x40 || c === 0x25;
}
/** A query character kept as written: the path's and `/` and `?`. */
const isQueryChar = (c: number): boolean => isPathChar(c) || c === 0x2f || c === 0x3f;

/**
 * `scheme://name-or-dotted-quad[:port][/path][?query]` in the characters WHATWG parsing leaves as
 * they are: no user info, fragment, upper case host, backslash, dot segment or character it would
 * percent-encode; undefined for anything else. Read by hand: the regular expression it replaces cost
 * a short-lived process its compilation (design/ipam-datastore.md, "No WHATWG URL on a call's path").
 */
function plainParts(href: string): PlainParts | undefined {
  const protocol = href.startsWith('http://') ? 'http:' : href.startsWith('https://') ? 'https:' : undefined;
  if (protocol === undefined) return undefined;
  let i = protocol.length + 2;
  // The host: labels of [a-z0-9-], none empty, joined by dots.
  const hostStart = i;
  for (;;) {
    const labelStart = i;
    while (i < href.length && isLowerAlnumOrDash(href.charCodeAt(i))) i += 1;
    if (i === labelStart) return undefined;
    if (href.charCodeAt(i) !== 0x2e) break;
    i += 1;
  }
  const hostname = href.slice(hostStart, i);
  let writtenPort: string | undefined;
  if (href.charCodeAt(i) === 0x3a) {
    const portStart = i + 1;
    i = portStart;
    while (i < href.length && isDigit(href.charCodeAt(i)) && i - portStart < 6) i += 1;
    writtenPort = href.slice(portStart, i);
    if (writtenPort.length === 0 || writtenPort.length > 5 || writtenPort.charCodeAt(0) === 0x30) return undefined;
  }
  const pathStart = i;
  while (href.charCodeAt(i) === 0x2f) {
    const segmentStart = i + 1;
    i = segmentStart;
    while (i < href.length && isPathChar(href.charCodeAt(i))) i += 1;
    const segment = href.slice(segmentStart, i);
    const next = href.charCodeAt(i);
    const segmentEnds = i === href.length || next === 0x2f || next === 0x3f;
    if ((segment === '.' || segment === '..') && segmentEnds) return undefined;
  }
  const path = href.slice(pathStart, i);
  let query: string | undefined;
  if (href.charCodeAt(i) === 0x3f) {
    const queryStart = i;
    i += 1;
    while (i < href.length && isQueryChar(href.charCodeAt(i))) i += 1;
    query = href.slice(queryStart, i);
  }
  return i === href.length ? { protocol, hostname, writtenPort, path, query } : undefined;
}

/** A label WHATWG parsing reads as a number: `0x` and lower-case hex digits, or decimal digits. */
function numericLabel(label: string): boolean {
  if (label.startsWith('0x')) {
    for (let i = 2; i < label.length; i += 1) {
      const c = label.charCodeAt(i);
      if (!isDigit(c) && !(c >= 0x61 && c <= 0x66)) return false;
    }
    return true;
  }
  if (label.length === 0) return false;
  for (let i = 0; i < label.length; i += 1) if (!isDigit(label.charCodeAt(i))) return false;
  return true;
}

/** One to three decimal digits without a leading zero (a lone `0` is fine), at most 255. */
function dottedQuadPart(label: string): boolean {
  if (label.length === 0 || label.length > 3 || (label.length > 1 && label.charCodeAt(0) === 0x30)) return false;
  for (let i = 0; i < label.length; i += 1) if (!isDigit(label.charCodeAt(i))) return false;
  return Number(label) <= 255;
}

/**
 * WHATWG parsing reads a host whose last label is a number as IPv4 (only the canonical form is kept
 * as written) and decodes `xn--` labels (which may be refused).
 */
function hostKeptAsWritten(hostname: string): boolean {
  if (hostname.includes('xn--')) return false;
  const labels = hostname.split('.');
  if (!numericLabel(labels[labels.length - 1] ?? '')) return true;
  return labels.length === 4 && labels.every(dottedQuadPart);
}

/**
 * An absolute URL's parts as `new URL(href)` gives them (design/ipam-datastore.md, "A small
 * HTTP/1.1 client", no WHATWG URL on a call's path). The plain forms are split here; every other
 * string (user info, IPv6, upper case, encoded dots, ...) goes through `URL`, which also throws
 * its TypeError for what is not a URL. Constructing the first `URL` of a process costs a
 * short-lived one about a millisecond (Node's URL code compiling), more than its requests.
 */
export function parseHttpUrl(href: string): HttpUrl {
  const parts = plainParts(href);
  if (parts === undefined || href.includes('%2e') || href.includes('%2E') || !hostKeptAsWritten(parts.hostname) || Number(parts.writtenPort ?? 0) > 65_535) {
    return new URL(href);
  }
  const { protocol, hostname, writtenPort, path, query } = parts;
  const port = writtenPort === undefined || writtenPort === DEFAULT_PORT[protocol] ? '' : writtenPort;
  const search = query === undefined || query === '?' ? '' : query;
  return { protocol, hostname, port, host: port === '' ? hostname : `${hostname}:${port}`, pathname: path === '' ? '/' : path, search, hash: '', username: '', password: '' };
}

/** `base`'s origin with an absolute path and no query: what `new URL(path, base)` gives for a plain path. */
export function atPath(base: HttpUrl, path: string): HttpUrl {
  return joinedTo(`${base.protocol}//${base.host}`)(path);
}

/**
 * A path (segments of the characters a plain URL keeps, none `.` or `..`, no encoded dot) and an
 * optional query. Checked with one simple expression: a request target is checked on every request,
 * and the interpreter's loop over its characters cost more than the expression's compilation.
 */
const PLAIN_PATH_AND_QUERY = /^(?:\/[A-Za-z0-9\-._~!$&()*+,;=:@%]*)*(?:\?[A-Za-z0-9\-._~!$&()*+,;=:@%/?]*)?$/;

function plainPathAndQuery(text: string): { readonly path: string; readonly query: string | undefined } | undefined {
  if (!PLAIN_PATH_AND_QUERY.test(text) || text.includes('%2e') || text.includes('%2E')) return undefined;
  const q = text.indexOf('?');
  const path = q < 0 ? text : text.slice(0, q);
  if (path.includes('/./') || path.includes('/../') || path.endsWith('/.') || path.endsWith('/..')) return undefined;
  return { path, query: q < 0 ? undefined : text.slice(q) };
}

/** Joiners by base text: a process joins its one or two servers' texts with every request target. */
const JOINERS = new Map<string, (pathAndQuery: string) => HttpUrl>();
const MAX_JOINERS = 16;

/**
 * `(pathAndQuery) => parseHttpUrl(base + pathAndQuery)`, with `base` (a server, or an origin) split
 * once: a plain base and a plain target are joined without splitting the whole text again
 * (design/ipam-datastore.md, "Regular expressions off the request path"); anything else goes the
 * general way.
 */
export function joinedTo(base: string): (pathAndQuery: string) => HttpUrl {
  const known = JOINERS.get(base);
  if (known !== undefined) return known;
  const parts = plainParts(base);
  const plainBase =
    parts !== undefined && parts.query === undefined && !base.includes('%2e') && !base.includes('%2E') && hostKeptAsWritten(parts.hostname) && Number(parts.writtenPort ?? 0) <= 65_535
      ? parts
      : undefined;
  const join = (pathAndQuery: string): HttpUrl => {
    const target = plainBase === undefined ? undefined : plainPathAndQuery(pathAndQuery);
    if (plainBase === undefined || target === undefined) return parseHttpUrl(base + pathAndQuery);
    const { protocol, hostname, writtenPort } = plainBase;
    const port = writtenPort === undefined || writtenPort === DEFAULT_PORT[protocol] ? '' : writtenPort;
    const pathname = plainBase.path + target.path;
    const search = target.query === undefined || target.query === '?' ? '' : target.query;
    return { protocol, hostname, port, host: port === '' ? hostname : `${hostname}:${port}`, pathname: pathname === '' ? '/' : pathname, search, hash: '', username: '', password: '' };
  };
  if (JOINERS.size >= MAX_JOINERS) JOINERS.clear();
  JOINERS.set(base, join);
  return join;
}

/**
 * `key=value&...` as `URLSearchParams` writes it (application/x-www-form-urlencoded: everything but
 * letters, digits and `*-._` percent-encoded, a space as `+`), skipping undefined values.
 */
export function formQuery(query: Readonly<Record<string, string | undefined>>): string {
  const encode = (s: string): string => formEncoded(encodeURIComponent(s));
  return Object.entries(query)
    .flatMap(([k, v]) => (v === undefined ? [] : [`${encode(k)}=${encode(v)}`]))
    .join('&');
}

/** What `encodeURIComponent` left of `!'()~` percent-encoded, and `%20` as `+`, without a regular expression. */
function formEncoded(component: string): string {
  let out = '';
  let from = 0;
  for (let i = 0; i < component.length; i += 1) {
    const c = component.charCodeAt(i);
    let replacement: string | undefined;
    if (c === 0x21 || c === 0x27 || c === 0x28 || c === 0x29 || c === 0x7e) replacement = `%${c.toString(16).toUpperCase()}`;
    else if (c === 0x25 && component.startsWith('%20', i)) replacement = '+';
    if (replacement === undefined) continue;
    out += component.slice(from, i) + replacement;
    from = i + (c === 0x25 ? 3 : 1);
    i = from - 1;
  }
  return from === 0 ? component : out + component.slice(from);
}
