/**
 * The parts of an absolute http(s) URL a request needs. A WHATWG `URL` has them all; so has what
 * {@link parseHttpUrl} returns for the plain forms servers and endpoints are written in.
 */
export type HttpUrl = Pick<URL, 'protocol' | 'host' | 'hostname' | 'port' | 'pathname' | 'search' | 'hash' | 'username' | 'password'>;

/**
 * `scheme://name-or-dotted-quad[:port][/path][?query]` in the characters WHATWG parsing leaves
 * as they are: no user info, fragment, upper case host, backslash, dot segment or character it
 * would percent-encode.
 */
const PLAIN_HTTP_URL = /^(https?:)\/\/([a-z0-9-]+(?:\.[a-z0-9-]+)*)(?::([1-9][0-9]{0,4}))?((?:\/(?!\.{1,2}(?:[/?]|$))[A-Za-z0-9\-._~!$&()*+,;=:@%]*)*)(\?[A-Za-z0-9\-._~!$&()*+,;=:@%/?]*)?$/;
const ENCODED_DOT = /%2e/i;
const DIGITS_OR_HEX = /^(?:0x[0-9a-f]*|[0-9]+)$/;
const DOTTED_QUAD_PART = /^(?:0|[1-9][0-9]{0,2})$/;
const DEFAULT_PORT: Readonly<Record<string, string>> = { 'http:': '80', 'https:': '443' };

/**
 * WHATWG parsing reads a host whose last label is a number as IPv4 (only the canonical form is kept
 * as written) and decodes `xn--` labels (which may be refused).
 */
function hostKeptAsWritten(hostname: string): boolean {
  if (hostname.includes('xn--')) return false;
  const labels = hostname.split('.');
  if (!DIGITS_OR_HEX.test(labels[labels.length - 1] ?? '')) return true;
  return labels.length === 4 && labels.every((l) => DOTTED_QUAD_PART.test(l) && Number(l) <= 255);
}

/**
 * An absolute URL's parts as `new URL(href)` gives them (design/ipam-datastore.md, "A small
 * HTTP/1.1 client", no WHATWG URL on a call's path). The plain forms are split here; every other
 * string (user info, IPv6, upper case, encoded dots, ...) goes through `URL`, which also throws
 * its TypeError for what is not a URL. Constructing the first `URL` of a process costs a
 * short-lived one about a millisecond (Node's URL code compiling), more than its requests.
 */
export function parseHttpUrl(href: string): HttpUrl {
  const m = PLAIN_HTTP_URL.exec(href);
  const [, protocol, hostname, writtenPort, path, query] = m ?? [];
  if (protocol === undefined || hostname === undefined || ENCODED_DOT.test(href) || !hostKeptAsWritten(hostname) || Number(writtenPort ?? 0) > 65_535) {
    return new URL(href);
  }
  const port = writtenPort === undefined || writtenPort === DEFAULT_PORT[protocol] ? '' : writtenPort;
  const search = query === undefined || query === '?' ? '' : query;
  return { protocol, hostname, port, host: port === '' ? hostname : `${hostname}:${port}`, pathname: path === undefined || path === '' ? '/' : path, search, hash: '', username: '', password: '' };
}

/** `base`'s origin with an absolute path and no query: what `new URL(path, base)` gives for a plain path. */
export function atPath(base: HttpUrl, path: string): HttpUrl {
  return parseHttpUrl(`${base.protocol}//${base.host}${path}`);
}

/**
 * `key=value&...` as `URLSearchParams` writes it (application/x-www-form-urlencoded: everything but
 * letters, digits and `*-._` percent-encoded, a space as `+`), skipping undefined values.
 */
export function formQuery(query: Readonly<Record<string, string | undefined>>): string {
  const encode = (s: string): string => encodeURIComponent(s).replace(/[!'()~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`).replace(/%20/g, '+');
  return Object.entries(query)
    .flatMap(([k, v]) => (v === undefined ? [] : [`${encode(k)}=${encode(v)}`]))
    .join('&');
}
