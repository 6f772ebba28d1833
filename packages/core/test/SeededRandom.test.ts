import { describe, expect, it } from "vitest"
import * as SeededRandom from "../src/SeededRandom.js"

const draw = (seed: number, n: number) => {
  const next = SeededRandom.make(seed)
  return Array.from({ length: n }, () => next())
}

describe("SeededRandom", () => {
  it("draws mulberry32's sequence, so a seed gives the same faults in either Effect line", () => {
    expect(draw(42, 3)).toEqual([0.6011037519201636, 0.44829055899754167, 0.8524657934904099])
    expect(draw(0, 1)).toEqual([0.26642920868471265])
  })

  it("the same seed repeats its sequence; another seed gives another", () => {
    expect(draw(7, 50)).toEqual(draw(7, 50))
    expect(draw(8, 50)).not.toEqual(draw(7, 50))
  })

  it("takes the seed as an unsigned 32-bit integer", () => {
    expect(draw(-1, 5)).toEqual(draw(0xFFFFFFFF, 5))
    expect(draw(2 ** 32 + 5, 5)).toEqual(draw(5, 5))
  })

  it("every number is in [0, 1)", () => {
    const numbers = draw(123, 10_000)
    expect(numbers.every((x) => x >= 0 && x < 1)).toBe(true)
    expect(new Set(numbers).size).toBeGreaterThan(9_990)
  })
})
