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

describe("PageAhead.reader", () => {
  const page = (from: number, length: number) => Array.from({ length }, (_, i) => ({ id: `r${from + i}` }))

  it("C12 C13 asks for the first page, then the two after it, and ends at the total", () => {
    const reader = PageAhead.reader({ maxCount: 500 })
    expect([reader.first, reader.count]).toEqual([0, 500])
    const first = reader.answered(0, { items: page(0, 500), total: 1200 })
    expect(first).toMatchObject({ giveUp: [], ask: [500, 1000], next: 500 })
    expect(first.page.offset).toBe(0)
    expect(reader.answered(500, { items: page(500, 500), total: 1200 })).toMatchObject({ ask: [], next: 1000 })
    const last = reader.answered(1000, { items: page(1000, 200), total: 1200 })
    expect(last).toMatchObject({ giveUp: [], ask: [], next: undefined })
    expect(last.page.items).toHaveLength(200)
  })

  it("C13 the page size is at most the API's largest, and the start offset is kept", () => {
    expect(PageAhead.reader({ pageSize: 10_000, maxCount: 500 }).count).toBe(500)
    const reader = PageAhead.reader({ offset: 30, pageSize: 100, maxCount: 500 })
    expect([reader.first, reader.count]).toEqual([30, 100])
    // The first page is handed over even empty: it carries the total.
    expect(reader.answered(30, { items: [], total: 0 })).toMatchObject({
      page: { items: [], total: 0 },
      next: undefined
    })
  })

  it("C12 a short page gives up the pages asked past it and asks for the right ones", () => {
    const reader = PageAhead.reader({ pageSize: 100, maxCount: 500 })
    reader.answered(0, { items: page(0, 100), total: 1000 })
    // The page at 100 held 90: the page asked at 200 starts at the wrong offset.
    const short = reader.answered(100, { items: page(100, 90), total: 1000 })
    expect(short).toMatchObject({ giveUp: [200], ask: [190, 290], next: 190 })
  })

  it("C14 an item seen on either of the two pages before is dropped, by id or community pair", () => {
    const reader = PageAhead.reader({ pageSize: 3, maxCount: 500 })
    reader.answered(0, { items: [{ id: "a" }, { id: "b" }, { id: "c" }], total: 9 })
    const second = reader.answered(3, { items: [{ id: "c" }, { id: "d" }, { id: "d" }], total: 9 })
    expect(second.page.items).toEqual([{ id: "d" }])
    const third = reader.answered(6, { items: [{ id: "a" }, { id: "e" }, { id: "f" }], total: 9 })
    expect(third.page.items).toEqual([{ id: "e" }, { id: "f" }])
    expect(PageAhead.keyOf({ group_id: 7, channel: "vk" })).toBe("community:vk:7")
    expect(PageAhead.keyOf({ id: "x", group_id: 7, channel: "vk" })).toBe("id:x")
    expect(PageAhead.keyOf([1])).toBe("json:[1]")
  })

  it("C12 the pages being fetched are kept by offset until each is taken, once", () => {
    const fetches = PageAhead.fetches<string>()
    fetches.started(0, "first")
    fetches.started(500, "second")
    expect(fetches.take(500)).toBe("second")
    expect(fetches.take(0)).toBe("first")
    expect(fetches.take(0)).toBeUndefined()
  })
  it("C12 a run keeps the fetches in flight: a short page gives up the fetches asked past it", () => {
    const run = PageAhead.run<string>({ pageSize: 100, maxCount: 500 })
    expect([run.first, run.count]).toEqual([0, 100])
    run.started(0, "fetch 0")
    expect(run.take(0)).toBe("fetch 0")
    const first = run.answered(0, { items: page(0, 100), total: 1000 })
    expect(first).toMatchObject({ giveUp: [], ask: [100, 200], next: 100 })
    run.started(100, "fetch 100")
    run.started(200, "fetch 200")
    expect(run.take(100)).toBe("fetch 100")
    const short = run.answered(100, { items: page(100, 90), total: 1000 })
    expect(short).toMatchObject({ giveUp: ["fetch 200"], ask: [190, 290], next: 190 })
    expect(run.take(200)).toBeUndefined()
  })
})
