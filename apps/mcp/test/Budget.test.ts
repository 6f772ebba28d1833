import { describe, expect, it } from "vitest"
import * as Budget from "../src/Budget.js"

const items = Array.from({ length: 10 }, (_, i) => ({ id: i, name: "x".repeat(90) }))
const size = JSON.stringify(items[0]).length

describe("the size budget of an answer", () => {
  it("keeps the items that fit and says where to go on", () => {
    const kept = Budget.cut(items, { chars: size * 3 + 2, offset: 40, total: 100 })
    expect(kept.items).toEqual(items.slice(0, 3))
    expect(kept.nextOffset).toBe(43)
    expect(JSON.stringify(kept.items).length).toBeLessThanOrEqual(size * 3 + 2 + 2)
  })

  it("keeps one item even when it alone is over the budget, so paging moves on", () => {
    expect(Budget.cut(items, { chars: 10, offset: 0, total: 10 })).toEqual({ items: items.slice(0, 1), nextOffset: 1 })
  })

  it("says nothing of a next offset when the list is done", () => {
    expect(Budget.cut(items, { chars: 1_000_000, offset: 90, total: 100 })).toEqual({ items, nextOffset: undefined })
  })
})

describe("the size budget of gathered pages", () => {
  const placed = (ats: ReadonlyArray<number>) => ats.map((at, i) => ({ item: items[i], at }))

  it("goes on from the first item left out, whatever offset the pages gave it", () => {
    // Offsets 3 and 4 held repeats of the page before, dropped: the item after them stands at 5.
    const kept = Budget.cutPlaced(placed([0, 1, 2, 5, 6, 7]), { chars: size * 3 + 2, end: 8, total: 20 })
    expect(kept).toEqual({ items: items.slice(0, 3), nextOffset: 5 })
  })

  it("when every item fits, goes on from where the pages read ended, while the list holds more", () => {
    expect(Budget.cutPlaced(placed([0, 1, 3]), { chars: 1_000_000, end: 5, total: 20 }))
      .toEqual({ items: items.slice(0, 3), nextOffset: 5 })
    expect(Budget.cutPlaced(placed([0, 1, 3]), { chars: 1_000_000, end: 5, total: 5 }))
      .toEqual({ items: items.slice(0, 3), nextOffset: undefined })
  })

  it("an empty page says nothing of where to go on, so that paging cannot loop on it", () => {
    expect(Budget.cut([], { chars: 100, offset: 7, total: 50 })).toEqual({ items: [], nextOffset: undefined })
  })

  it("counts the characters of the items' JSON as a list holds them", () => {
    expect(Budget.charsOf(items.slice(0, 3))).toBe(JSON.stringify(items.slice(0, 3)).length - 2)
    expect(Budget.charsOf([])).toBe(0)
    expect(Budget.sizeOf(items[0])).toBe(size)
  })
})
