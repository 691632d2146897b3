import { readFileSync, statSync } from 'node:fs';
import { delimiter } from 'node:path';
import { DATASTORE_ENV_NAMES, type DatastoreOverrides } from './datastore-overrides.js';
import { CREDENTIAL_KEY_NAMES, credentialValuesIn } from './kubeconfig-credential-values.js';

const REDACTED = '[redacted]';

/** Keys whose value is a credential in a kubeconfig, a JSON body or a YAML excerpt. */
const CREDENTIAL_KEYS = CREDENTIAL_KEY_NAMES.join('|');

/** A part every one of CREDENTIAL_KEYS contains, in lower case. */
const CREDENTIAL_KEY_PARTS = ['token', 'password', 'key-data', 'secret'];
const URL_USER_INFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/@]+@/gi;
const CREDENTIAL_FIELD = new RegExp(`(["']?\\b(?:${CREDENTIAL_KEYS})["']?\\s*[:=]\\s*)("[^"]*"|'[^']*'|[^\\s,}\\]]+)`, 'gi');
const AUTH_HEADER = /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/g;
const PRIVATE_KEY = /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)/g;
/** Shorter values would blank ordinary words out of messages; they are still caught by the patterns. */
const MIN_KNOWN_SECRET = 4;
const MAX_KUBECONFIG_BYTES = 1 << 20;

/**
 * Text with every credential it might carry replaced (design/ipam-datastore.md, "Configuration",
 * redaction): the known secret values, user info in URLs, credential fields of YAML or JSON
 * excerpts, Authorization header values and PEM private keys. For messages made from errors this
 * process did not phrase itself (an HTTP client's, a YAML library's).
 */
export function redactSecrets(text: string, knownSecrets: readonly string[] = []): string {
  // The patterns first, so a field whose value is also a known secret is replaced once, whole.
  // Each pattern only where its fixed part occurs: most texts (a log line of our own) match none,
  // and a short-lived process then never compiles the expressions at all.
  let out = text;
  if (out.includes('PRIVATE KEY')) out = out.replace(PRIVATE_KEY, REDACTED);
  if (out.includes('@')) out = out.replace(URL_USER_INFO, `$1${REDACTED}@`);
  if (out.includes('Bearer') || out.includes('Basic')) out = out.replace(AUTH_HEADER, `$1 ${REDACTED}`);
  const lower = out.toLowerCase();
  if (CREDENTIAL_KEY_PARTS.some((part) => lower.includes(part))) out = out.replace(CREDENTIAL_FIELD, `$1${REDACTED}`);
  for (const secret of [...knownSecrets].sort((a, b) => b.length - a.length)) {
    if (secret.length >= MIN_KNOWN_SECRET) out = out.split(secret).join(REDACTED);
  }
  return out;
}

/** Values of credential keys in a kubeconfig's text, found line by line so a malformed file still yields them. */
function kubeconfigSecrets(path: string): string[] {
  let text: string;
  try {
    if (statSync(path).size > MAX_KUBECONFIG_BYTES) return [];
    text = readFileSync(path, 'utf8');
  } catch {
    return [];
  }
  return credentialValuesIn(text);
}

/**
 * The secret values a process configured this way holds: the etcd password (override or
 * `ETCD_PASSWORD`) and the credentials in the kubeconfig (override or `KUBECONFIG`). A top-level
 * error printer passes them to `redactSecrets`.
 */
export function datastoreSecrets(env: Readonly<Record<string, string | undefined>>, overrides: DatastoreOverrides = {}): string[] {
  const pick = (given: string | undefined, name: string): string | undefined => (given !== undefined && given !== '' ? given : env[name]);
  const secrets: string[] = [];
  const password = pick(overrides.etcdPassword, DATASTORE_ENV_NAMES.etcdPassword);
  if (password !== undefined && password !== '') secrets.push(password);
  const kubeconfig = pick(overrides.kubeconfig, DATASTORE_ENV_NAMES.kubeconfig);
  for (const file of (kubeconfig ?? '').split(delimiter)) if (file !== '') secrets.push(...kubeconfigSecrets(file));
  return secrets;
}

/** An error's message, redacted: what a bin prints when it gives up. */
export function redactedErrorMessage(err: unknown, knownSecrets: readonly string[] = []): string {
  return redactSecrets(err instanceof Error ? err.message : String(err), knownSecrets);
}
