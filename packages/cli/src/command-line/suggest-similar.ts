/** Edit distance with adjacent transpositions (optimal string alignment), for "Did you mean". */
function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 3) return Math.max(a.length, b.length);
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      let best = Math.min((previous[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, (before[j - 2] ?? 0) + 1);
      row.push(best);
    }
    [before, previous] = [previous, row];
  }
  return previous[b.length] ?? 0;
}

/**
 * The line an unknown command or `--flag` error ends with (design/cli.md, "Command line"): the
 * candidates at the smallest distance (at most 3 edits, more than 40% alike), or nothing.
 */
export function suggestSimilar(typed: string, candidates: readonly string[]): string {
  const dashes = typed.startsWith('--') ? '--' : '';
  const word = typed.slice(dashes.length);
  let best = 3;
  let similar: string[] = [];
  for (const candidate of new Set(candidates.map((c) => c.slice(dashes.length)))) {
    if (candidate.length <= 1) continue;
    const distance = editDistance(word, candidate);
    const length = Math.max(word.length, candidate.length);
    if ((length - distance) / length <= 0.4) continue;
    if (distance < best) [best, similar] = [distance, [candidate]];
    else if (distance === best) similar.push(candidate);
  }
  const named = similar.sort((a, b) => a.localeCompare(b)).map((c) => `${dashes}${c}`);
  const [only, ...others] = named;
  if (only === undefined) return '';
  return others.length === 0 ? `\n(Did you mean ${only}?)` : `\n(Did you mean one of ${named.join(', ')}?)`;
}
