export type ExclusionCriterion = "a" | "b" | "c";

/** One published classification: a cluster, the criterion it met, and the numbers compared. */
export interface ClusterEvidence {
  readonly criterion: ExclusionCriterion;
  /** The addresses grouped as one cluster, sorted; never a verdict on any one of them. */
  readonly cluster: readonly string[];
  /** Swaps excluded on this evidence, `<tx>:<logIndex>`, in chain order. */
  readonly swaps: readonly string[];
  readonly volumeUsd: number;
  /** What the criterion measured, amounts as decimal strings of base units. */
  readonly measures: Readonly<Record<string, string | number>>;
}
