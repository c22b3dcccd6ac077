// Oversized assets: what a window downloads before it can show anything. The thresholds are the
// operator's (`assetSizeCheck({...})`); the defaults follow the spec's advice to keep a bundle
// under 200 files and what a window on a phone can load quickly.
import type { PreReviewCheck, ReviewFinding } from "../pre-review.js";

export interface AssetSizeLimits {
  /** One file over this is a warning… */
  fileWarnBytes: number;
  /** …and over this an error. */
  fileErrorBytes: number;
  totalWarnBytes: number;
  totalErrorBytes: number;
  /** More files than this is a warning (each one is a request and an object). */
  fileCountWarn: number;
}

export const DEFAULT_ASSET_SIZE_LIMITS: AssetSizeLimits = Object.freeze({
  fileWarnBytes: 2 * 1024 * 1024,
  fileErrorBytes: 10 * 1024 * 1024,
  totalWarnBytes: 10 * 1024 * 1024,
  totalErrorBytes: 50 * 1024 * 1024,
  fileCountWarn: 200,
});

const mib = (bytes: number): string => `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;

export function assetSizeCheck(limits: Partial<AssetSizeLimits> = {}): PreReviewCheck {
  const l = { ...DEFAULT_ASSET_SIZE_LIMITS, ...limits };
  return {
    id: "asset-size",
    run(input) {
      const findings: ReviewFinding[] = [];
      const files = input.bundle?.files ?? [];
      for (const f of files) {
        if (f.byte_size <= l.fileWarnBytes) continue;
        const error = f.byte_size > l.fileErrorBytes;
        findings.push({
          check: "asset-size",
          severity: error ? "error" : "warning",
          path: f.relative_path,
          message: `${f.relative_path} is ${mib(f.byte_size)}, over the ${mib(error ? l.fileErrorBytes : l.fileWarnBytes)} ${error ? "limit" : "advice"} for one file: compress it, split it, or load it on demand from storage`,
        });
      }
      const total = files.reduce((n, f) => n + f.byte_size, 0);
      if (total > l.totalWarnBytes) {
        const error = total > l.totalErrorBytes;
        findings.push({
          check: "asset-size",
          severity: error ? "error" : "warning",
          message: `the bundle is ${mib(total)} in all, over the ${mib(error ? l.totalErrorBytes : l.totalWarnBytes)} ${error ? "limit" : "advice"}: drop source maps and unused assets`,
        });
      }
      if (files.length > l.fileCountWarn) {
        findings.push({
          check: "asset-size",
          severity: "warning",
          message: `the bundle has ${files.length} files, over the advised ${l.fileCountWarn}: bundle scripts and styles into fewer files`,
        });
      }
      return Promise.resolve(findings);
    },
  };
}
