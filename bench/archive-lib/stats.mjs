// Small statistics and formatting helpers.
export function quantile(values, q) {
  const xs = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (xs.length === 0) return Number.NaN;
  const at = (xs.length - 1) * q;
  const lo = Math.floor(at);
  const hi = Math.ceil(at);
  return xs[lo] + (xs[hi] - xs[lo]) * (at - lo);
}
export const median = (values) => quantile(values, 0.5);
export const sum = (values) => values.reduce((a, b) => a + b, 0);
export const mean = (values) => (values.length === 0 ? Number.NaN : sum(values) / values.length);

export function fmt(n, digits = 0) {
  if (!Number.isFinite(n)) return '–';
  return n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}
export const fmtMs = (n) => (!Number.isFinite(n) ? '–' : n >= 10_000 ? `${fmt(n / 1000, 1)} s` : `${fmt(n)} ms`);
export const fmtRatio = (n) => (!Number.isFinite(n) ? '–' : `${fmt(n, 2)}×`);
export function fmtBytes(n) {
  if (!Number.isFinite(n)) return '–';
  if (n >= 1e9) return `${fmt(n / 1e9, 2)} GB`;
  if (n >= 1e6) return `${fmt(n / 1e6, 1)} MB`;
  if (n >= 1e3) return `${fmt(n / 1e3, 1)} kB`;
  return `${fmt(n)} B`;
}
/** Relative spread (p90 − p10) / median, a cheap noise indicator. */
export function spread(values) {
  const m = median(values);
  return m > 0 ? (quantile(values, 0.9) - quantile(values, 0.1)) / m : Number.NaN;
}
