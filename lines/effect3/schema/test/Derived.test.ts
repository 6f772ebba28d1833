/**
 * What this line writes for the Effect 4 line is current: the generated declarations
 * (`lines/effect4/schema/src/generated/`) and the shared wire vectors (`vectors/wire.json`). After a change
 * of the contract, `pnpm --filter @community-api/schema effect4` and `… vectors` write them again.
 */
import { describe, expect, it } from "@effect/vitest"
import { readdirSync, readFileSync } from "node:fs"
import * as Effect4 from "../scripts/effect4.js"
import * as Vectors from "../scripts/vectors.js"

describe("derived for the Effect 4 line", () => {
  it("X1 the generated declarations are what the generator writes from this line's schemas", () => {
    const files = Effect4.files()
    expect(readdirSync(Effect4.targetDirectory).sort()).toEqual(Object.keys(files).sort())
    for (const [name, text] of Object.entries(files)) {
      expect({ name, text: readFileSync(`${Effect4.targetDirectory}${name}`, "utf8") }).toEqual({ name, text })
    }
  })

  it("C2 C5 C6 the shared wire vectors are current", () => {
    expect(readFileSync(Vectors.target, "utf8")).toBe(Vectors.render())
  })

  it("C2 C5 C6 the vectors hold every kind of outcome", () => {
    const kinds = new Set(Vectors.vectors().map((vector) => Object.keys(vector.outcome)[0]))
    expect(kinds).toEqual(new Set(["params", "refused", "success", "error", "malformed"]))
  })
})
