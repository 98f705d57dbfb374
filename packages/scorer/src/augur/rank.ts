/** Competition ranking: equal scores share a rank and the next rank skips (1, 1, 3); null stays unranked. */
export function competitionRanks(scores: readonly (number | null)[]): (number | null)[] {
  const order = scores
    .map((score, index) => ({ score, index }))
    .filter((entry): entry is { score: number; index: number } => entry.score !== null)
    .sort((a, b) => b.score - a.score);
  const ranks: (number | null)[] = scores.map(() => null);
  order.forEach((entry, position) => {
    const previous = order[position - 1];
    ranks[entry.index] =
      previous !== undefined && previous.score === entry.score ? ranks[previous.index]! : position + 1;
  });
  return ranks;
}

/** Rows by rank (unranked last), then agent id by UTF-16 code units, so output order is stable. */
export function compareByRankThenAgent(
  a: { rank: number | null; agent_id: string },
  b: { rank: number | null; agent_id: string },
): number {
  const ra = a.rank ?? Number.POSITIVE_INFINITY;
  const rb = b.rank ?? Number.POSITIVE_INFINITY;
  if (ra !== rb) return ra - rb;
  return a.agent_id < b.agent_id ? -1 : a.agent_id > b.agent_id ? 1 : 0;
}
