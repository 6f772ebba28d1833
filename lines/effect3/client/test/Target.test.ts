import { describe, expect, it } from "@effect/vitest"
import suite from "../../../../tests/client-behaviour/scenarios/Target.js"
import { register } from "../../../../tests/client-behaviour/src/Scenario.js"
import * as Target from "../src/Target.js"
import { line } from "./support/Driver.js"

register(suite, line, { describe, it })

describe("Target.resolve", () => {
  it("reads the environment's three names", () => {
    expect([Target.baseUrlVariable, Target.tokenVariable, Target.redisUrlVariable]).toEqual([
      "COMMUNITY_API_BASE_URL",
      "COMMUNITY_API_TOKEN",
      "COMMUNITY_API_REDIS_URL"
    ])
  })
})
