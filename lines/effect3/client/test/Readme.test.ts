import { describe, expect, it } from "@effect/vitest"
import suite from "../../../../tests/client-behaviour/scenarios/Readme.js"
import * as Readme from "../../../../tests/client-behaviour/src/Readme.js"
import { line, run } from "./support/Driver.js"

run(suite)

// This line's README holds three examples, the Effect 4 line's two: each line checks its own.
describe("README.md, the client's examples as written", () => {
  it("the three examples typecheck with the client package's strict settings", async () => {
    const exit = await Readme.typecheck(line.readme, {
      "service.ts": await Readme.example(line.readme.service),
      "example.test.ts": await Readme.example(line.readme.tests),
      "limits.ts": await Readme.example("### Retries and limits")
    })
    expect(exit.stdout + exit.stderr).toBe("")
    expect(exit.code).toBe(0)
  }, Readme.bounds.tsc + 30_000)
})
