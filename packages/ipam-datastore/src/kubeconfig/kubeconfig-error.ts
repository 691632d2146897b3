import { DatastoreConfigError } from '../errors.js';

/**
 * A kubeconfig (or the in-cluster service account) cannot be used. The message names the file and,
 * for YAML problems, the line; it never quotes the file, a token, a password or a key
 * (design/ipam-datastore.md, "Kubernetes backend: kubeconfig loading", Redaction).
 */
export class KubeconfigError extends DatastoreConfigError {
  override name = 'KubeconfigError';
}

/** The errno code of a failed file read (`ENOENT`, `EACCES`), never its message. */
export function fileErrorCode(err: unknown): string {
  const code = err instanceof Error ? (err as NodeJS.ErrnoException).code : undefined;
  return code ?? 'unreadable';
}
