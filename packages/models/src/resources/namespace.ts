/** A Kubernetes Namespace, as pool namespace selectors need it. */
export interface Namespace {
  name: string;
  labels?: Record<string, string>;
}
