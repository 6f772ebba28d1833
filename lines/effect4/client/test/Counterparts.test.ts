/**
 * Every rule-named test of the Effect 3 client has its counterpart here: a test of the same title in
 * the file of the same name, proving the same rule on the Effect 4 line. The few that cannot have one
 * are listed, each with its reason, in `docs/effect4.md` under {@link heading}; the list may hold
 * nothing else (no stale entry, nothing that has a counterpart after all).
 */
import { describe, expect, it } from "@effect/vitest"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import * as Conformance from "../../../../scripts/conformance.js"

const heading = "## Client tests without an Effect 4 counterpart"

/** A written exemption: `- File.test.ts › title — reason`. */
interface Exemption {
  readonly file: string
  readonly title: string
  readonly reason: string
}

const exemptionLine = /^- `([\w.]+\.test\.ts)` › (.+) — (.+)$/

/** The bullets under {@link heading}, up to the next heading. */
const exemptions = (doc: string): Array<Exemption> => {
  const start = doc.indexOf(`\n${heading}\n`)
  if (start === -1) return []
  const rest = doc.slice(start + heading.length + 2)
  const end = rest.search(/^#{1,3} /m)
  return (end === -1 ? rest : rest.slice(0, end)).split("\n").flatMap((line) => {
    const match = exemptionLine.exec(line)
    return match === null ? [] : [{ file: match[1]!, title: match[2]!, reason: match[3]! }]
  })
}

const root = Conformance.repoRoot
const key = (t: { readonly file: string; readonly title: string }) => `${t.file} › ${t.title}`

describe("Counterparts of the Effect 3 client's tests", () => {
  const effect3 = Conformance.packageTests(root, "lines/effect3", "client")
  const effect4 = new Set(Conformance.packageTests(root, "lines/effect4", "client").map(key))
  const written = exemptions(readFileSync(join(root, "docs", "effect4.md"), "utf8"))

  it("the written exemptions are read: each names a file, a title and a reason", () => {
    expect(
      exemptions(
        `\n${heading}\n\n- \`A.test.ts\` › C1 a title: with a colon — why not\n- other\n## Next\n- \`B.test.ts\` › x — y`
      )
    )
      .toStrictEqual([{ file: "A.test.ts", title: "C1 a title: with a colon", reason: "why not" }])
    for (const e of written) expect(e.reason.length, key(e)).toBeGreaterThan(20)
  })

  it("C1 every rule-named test of the Effect 3 client has an Effect 4 test of the same title in the same file, or a written reason", () => {
    // The scan found the line's own tests (most rule-named tests are scenarios, which both lines run).
    expect(effect3.length).toBeGreaterThan(5)
    const exempt = new Set(written.map(key))
    const missing = effect3.map(key).filter((k) => !effect4.has(k) && !exempt.has(k))
    expect(missing).toStrictEqual([])
  })

  it("the exemptions list only Effect 3 tests that exist and have no counterpart", () => {
    const names = new Set(effect3.map(key))
    for (const e of written) {
      expect(names.has(key(e)), `${key(e)} is no rule-named test of the Effect 3 client`).toBe(true)
      expect(effect4.has(key(e)), `${key(e)} has a counterpart: remove its exemption`).toBe(false)
    }
  })
})
