// Small, allocation-free-enough statistics for benchmark samples.

/** Nearest-rank percentile (p in 0..100) of unsorted samples; NaN when empty. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))] ?? Number.NaN;
}

export function median(samples: readonly number[]): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const upper = sorted[mid] ?? Number.NaN;
  if (sorted.length % 2 === 1) return upper;
  return ((sorted[mid - 1] ?? upper) + upper) / 2;
}

export interface Summary {
  median: number;
  min: number;
  max: number;
  /** One value per fresh process (round), in run order. */
  samples: number[];
}

export function summarize(samples: readonly number[]): Summary {
  const finite = samples.filter((value) => Number.isFinite(value));
  return {
    median: median(finite),
    min: finite.length === 0 ? Number.NaN : Math.min(...finite),
    max: finite.length === 0 ? Number.NaN : Math.max(...finite),
    samples: [...samples],
  };
}
