import { defineConfig } from "vitest/config";

// Integration tests spawn real processes; keep them inside CI's two cores.
export default defineConfig({
  test: {
    include: [
      "packages/*/test/**/*.test.ts",
      "tests/**/*.test.ts",
      "examples/**/test/**/*.test.ts",
    ],
    exclude: ["**/node_modules/**", "**/dist/**"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: "forks",
    maxWorkers: 2,
  },
});
