export { Http1Client, type Http1ClientOptions, type Http1Request } from './http1-client.js';
export { Http1ProtocolError, MAX_BODY_BYTES, MAX_HEAD_BYTES, ResponseParser, type Http1Response } from './response-parser.js';
export type { TlsSettings } from './byte-stream.js';
export { atPath, formQuery, joinedTo, parseHttpUrl, type HttpUrl } from './http-url.js';
