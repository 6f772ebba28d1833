import { defineConfig } from "vitest/config"

// The Effect 4 line's own vitest (5), so not the workspace's shared settings (vitest 3): the same values.
export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    sequence: { concurrent: false },
    testTimeout: 30_000,
    hookTimeout: 30_000
  }
})
