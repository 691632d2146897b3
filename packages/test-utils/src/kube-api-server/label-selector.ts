/**
 * Kubernetes label selectors as the API server evaluates `?labelSelector=`: comma-separated
 * requirements `k`, `!k`, `k=v`, `k==v`, `k!=v`, `k in (a,b)`, `k notin (a,b)`. `!=` and `notin`
 * also match objects that lack the key, as in Kubernetes.
 */
export type LabelRequirement =
  | { readonly op: 'exists' | 'notExists'; readonly key: string }
  | { readonly op: 'in' | 'notIn'; readonly key: string; readonly values: readonly string[] };

export class LabelSelectorError extends Error {
  override name = 'LabelSelectorError';
}

const TOKEN = /\s*(!=|==|=|!|\(|\)|,|[A-Za-z0-9][-A-Za-z0-9_./]*|[-A-Za-z0-9_.]+)?/y;

function tokenize(text: string): string[] {
  const tokens: string[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < text.length) {
    const start = TOKEN.lastIndex;
    const match = TOKEN.exec(text);
    const token = match?.[1];
    if (token === undefined) {
      if (text.slice(start).trim() === '') break;
      throw new LabelSelectorError(`unexpected character in label selector ${JSON.stringify(text)} at ${TOKEN.lastIndex}`);
    }
    tokens.push(token);
  }
  return tokens;
}

export function parseLabelSelector(text: string): LabelRequirement[] {
  const tokens = tokenize(text);
  const out: LabelRequirement[] = [];
  let i = 0;
  const next = (): string | undefined => tokens[i++];
  const bad = (why: string): never => {
    throw new LabelSelectorError(`invalid label selector ${JSON.stringify(text)}: ${why}`);
  };
  const word = (): string => {
    const t = next();
    if (t === undefined || /^(!=|==|=|!|\(|\)|,)$/.test(t)) return bad(`expected a name, got ${t ?? 'end'}`);
    return t;
  };
  while (i < tokens.length) {
    if (tokens[i] === '!') {
      i += 1;
      out.push({ op: 'notExists', key: word() });
    } else {
      const key = word();
      const op = tokens[i];
      if (op === undefined || op === ',') out.push({ op: 'exists', key });
      else if (op === '=' || op === '==' || op === '!=') {
        i += 1;
        // An empty value is legal (`k=` selects an empty label value).
        const peek = tokens[i];
        const value = peek === undefined || peek === ',' ? '' : word();
        out.push({ op: op === '!=' ? 'notIn' : 'in', key, values: [value] });
      } else if (op === 'in' || op === 'notin') {
        i += 1;
        if (next() !== '(') bad('expected "("');
        const values: string[] = [];
        for (;;) {
          const t = tokens[i];
          if (t === ')') {
            i += 1;
            break;
          }
          if (t === ',') {
            i += 1;
            continue;
          }
          values.push(word());
        }
        out.push({ op: op === 'in' ? 'in' : 'notIn', key, values });
      } else bad(`unexpected ${op}`);
    }
    if (i < tokens.length) {
      if (tokens[i] !== ',') bad(`expected ",", got ${tokens[i] ?? 'end'}`);
      i += 1;
    }
  }
  return out;
}

export function matchesLabels(requirements: readonly LabelRequirement[], labels: Readonly<Record<string, string>>): boolean {
  return requirements.every((req) => {
    const has = Object.prototype.hasOwnProperty.call(labels, req.key);
    switch (req.op) {
      case 'exists':
        return has;
      case 'notExists':
        return !has;
      case 'in':
        return has && req.values.includes(labels[req.key] ?? '');
      case 'notIn':
        return !has || !req.values.includes(labels[req.key] ?? '');
    }
  });
}
