import { defineConfig } from "vitest/config";

// The app's own config, as a published app ships it: bundle tests under tests/.
export default defineConfig({
  test: {
    include: ["tests/**/*.spec.js"],
  },
});
