import { defineConfig, mergeConfig } from "vitest/config"
import { BaseSequencer, type TestSpecification } from "vitest/node"
import shared from "../../../vitest.shared.js"

/**
 * The suites of real processes sharing limits through Redis (one server, and a cluster) measure a
 * rate against the clock (28.5 ok requests per second of three processes): they run last, when the
 * other packages' suites that the test command runs at the same time are mostly done and the two
 * cores are less busy.
 */
class ProcessesLast extends BaseSequencer {
  override async sort(files: Array<TestSpecification>): Promise<Array<TestSpecification>> {
    const sorted = await super.sort(files)
    const last = (file: TestSpecification) =>
      file.moduleId.endsWith("/SharedLimits.test.ts") || file.moduleId.endsWith("/RedisCluster.test.ts")
    return [...sorted.filter((file) => !last(file)), ...sorted.filter(last)]
  }
}

export default mergeConfig(
  shared,
  defineConfig({ test: { globalSetup: ["./test/support/globalSetup.ts"], sequence: { sequencer: ProcessesLast } } })
)
