import { defineConfig } from "vitest/config";

// The app's own config, as a published app ships it: the bundle tests under tests/. The
// executa's tests and the repository's browser test live elsewhere (test/, executas/).
export default defineConfig({
  test: {
    include: ["tests/**/*.spec.js"],
  },
});
