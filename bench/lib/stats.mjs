// Order statistics for small noisy samples.

const sorted = (xs) => [...xs].sort((a, b) => a - b);

export function median(xs) {
  if (xs.length === 0) return Number.NaN;
  const s = sorted(xs);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/** Nearest-rank percentile (p in 0..100): the smallest sample with at least p% of samples ≤ it. */
export function percentile(xs, p) {
  if (xs.length === 0) return Number.NaN;
  const s = sorted(xs);
  const rank = Math.max(1, Math.ceil((p / 100) * s.length));
  return s[rank - 1];
}

export function summary(xs) {
  const s = sorted(xs);
  return {
    n: s.length,
    min: s[0] ?? Number.NaN,
    median: median(s),
    p95: percentile(s, 95),
    max: s[s.length - 1] ?? Number.NaN,
  };
}

export function mean(xs) {
  const ys = xs.filter(Number.isFinite);
  return ys.length === 0 ? Number.NaN : ys.reduce((a, b) => a + b, 0) / ys.length;
}

/** Median of per-round ratios a[i] / b[i]: each pair ran back to back, so slow load drift cancels. */
export function pairedRatio(a, b) {
  const n = Math.min(a.length, b.length);
  const rs = [];
  for (let i = 0; i < n; i++) rs.push(a[i] / b[i]);
  return median(rs);
}
