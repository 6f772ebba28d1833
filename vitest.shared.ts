import { defineConfig } from "vitest/config"

/** Settings every package's `vitest.config.ts` merges in. */
export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    sequence: { concurrent: false },
    testTimeout: 30_000,
    hookTimeout: 30_000,
    fakeTimers: { toFake: [] }
  }
})
