import { defineConfig } from "vitest/config";

// Only the bundle's tests: the executas under executas/ have their own test runners.
export default defineConfig({
  test: {
    include: ["tests/**/*.test.js"],
  },
});
