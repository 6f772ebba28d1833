/**
 * The pages a stream over a list asks for ahead of the caller: the next and the one after it, none past
 * the total, offsets moved by what each page held.
 */
import { describe, expect, it } from "vitest"
import * as PageAhead from "../src/PageAhead.js"

describe("PageAhead", () => {
  it("C12 C13 after a full page: the next page and the one after it, while the total says they exist", () => {
    expect(PageAhead.plan({ offset: 0, items: 500, total: 100_000, count: 500 })).toEqual([500, 1000])
    // The page after the next would start at the total: only the next.
    expect(PageAhead.plan({ offset: 0, items: 500, total: 1000, count: 500 })).toEqual([500])
    expect(PageAhead.plan({ offset: 0, items: 500, total: 1001, count: 500 })).toEqual([500, 1000])
  })

  it("C12 C13 the last page asks for nothing: empty, or reaching the total", () => {
    expect(PageAhead.plan({ offset: 500, items: 0, total: 2000, count: 500 })).toEqual([])
    expect(PageAhead.plan({ offset: 1500, items: 500, total: 2000, count: 500 })).toEqual([])
    expect(PageAhead.plan({ offset: 30, items: 0, total: 0, count: 100 })).toEqual([])
  })

  it("C12 C14 a short page moves the next offsets by what it held, not by the page size", () => {
    expect(PageAhead.plan({ offset: 100, items: 90, total: 350, count: 100 })).toEqual([190, 290])
  })

  it("C12 more pages ahead when asked, none past the total", () => {
    expect(PageAhead.plan({ offset: 0, items: 100, total: 450, count: 100 }, 5)).toEqual([100, 200, 300, 400])
    expect(PageAhead.plan({ offset: 0, items: 100, total: 450, count: 100 }, 1)).toEqual([100])
  })
})
