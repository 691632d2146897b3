import { DatastoreConfigError } from '../errors.js';
import { parseHttpUrl, type HttpUrl } from '../http1/http-url.js';

/** One endpoint's fault, phrased without the endpoint when it may carry credentials. */
function endpointFault(raw: string, position: number, source: string): string | undefined {
  const where = `etcd endpoint ${position} of ${source}`;
  // User info may sit in a string URL cannot even parse: never echo anything that has an '@'.
  if (raw.includes('@')) {
    return `${where} carries user info (user:password@); give the credentials in ETCD_USERNAME and ETCD_PASSWORD instead`;
  }
  let url: HttpUrl;
  try {
    url = parseHttpUrl(raw);
  } catch {
    return `${where} is not a URL: ${JSON.stringify(raw)}`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `${where} must be an http:// or https:// URL, got ${JSON.stringify(raw)}`;
  if (url.pathname !== '/' || url.search !== '' || url.hash !== '') return `${where} must be scheme://host:port without a path, got ${JSON.stringify(raw)}`;
  return undefined;
}

/**
 * Splits and checks a comma-separated endpoint list (design/ipam-datastore.md, "Configuration").
 * `source` names the variable or flag the list came from; an endpoint with user info is refused
 * without repeating it, so a password typed into a URL never reaches a log.
 */
export function parseEtcdEndpoints(list: string, source: string): string[] {
  const endpoints = list.split(',').map((e) => e.trim()).filter((e) => e !== '');
  endpoints.forEach((raw, i) => {
    const fault = endpointFault(raw, i + 1, source);
    if (fault !== undefined) throw new DatastoreConfigError(fault);
  });
  return endpoints.map((e) => e.replace(/\/$/, ''));
}
