import { defineConfig } from "vitest/config";

// The app's own suite, as a published app ships it: the bundle's tests under tests/. The
// repository's tests of this example (test/, a browser and the plugin under the host) run from
// the repository root instead.
export default defineConfig({
  test: {
    include: ["tests/**/*.spec.js"],
  },
});
