import { defineConfig, mergeConfig } from "vitest/config"
import shared from "../../vitest.shared.js"

// `npm install` from the registry and a full type-check on a loaded two-core machine: minutes, not seconds.
export default mergeConfig(shared, defineConfig({ test: { testTimeout: 300_000, hookTimeout: 300_000 } }))
