import { defineConfig, mergeConfig } from "vitest/config"
import shared from "../../../vitest.shared.js"

// The tests that spawn the command start the compiled one: it is brought up to date first.
export default mergeConfig(shared, defineConfig({ test: { globalSetup: ["../../../vitest.bundle.ts"] } }))
