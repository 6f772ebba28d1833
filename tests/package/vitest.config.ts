import { defineConfig, mergeConfig } from "vitest/config"
import shared from "../../vitest.shared.js"

// Three TypeScript builds from scratch, `npm install` from the registry and a full type-check on a
// loaded two-core machine: minutes, not seconds. Bounds on a hang only.
export default mergeConfig(shared, defineConfig({ test: { testTimeout: 300_000, hookTimeout: 600_000 } }))
