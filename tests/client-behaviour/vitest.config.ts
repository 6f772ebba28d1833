import { defineConfig, mergeConfig } from "vitest/config"
import shared from "../../vitest.shared.js"

// The scenarios themselves run in each line's client; this package checks only that they do.
export default mergeConfig(shared, defineConfig({ test: { include: ["test/**/*.test.ts"] } }))
