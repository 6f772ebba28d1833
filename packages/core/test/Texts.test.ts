import { describe, expect, it } from "vitest"
import * as DemoData from "../src/DemoData.js"
import * as Limits from "../src/Limits.js"
import * as Operations from "../src/Operations.js"
import * as Texts from "../src/Texts.js"

const secrets = [...Object.values(DemoData.tokens), "deadbeefdeadbeefdeadbeefdeadbeef", "THP_UPPER_case_1"]

/** Every text made from one piece of a request. */
const textsOf = (input: string): ReadonlyArray<string> => [
  Texts.unknownSection(input),
  Texts.unknownVersion(input),
  Texts.unknownMethod(input, input),
  Texts.notPost(input),
  Texts.unsupportedContentType(input),
  Texts.reservedParameter(input)
]

describe("Texts", () => {
  it("no text echoes a token, a key or anything that looks like one", () => {
    for (const secret of secrets) {
      for (const text of textsOf(secret)) {
        expect(text).not.toContain(secret)
        expect(text).toContain("«…»")
      }
      expect(Texts.shownPath(`/external-api/v2/${secret}/me`)).toBe("/external-api/v2/«…»/me")
      expect(Texts.isShownSegment(secret)).toBe(false)
    }
  })

  it("a percent-encoded token is decoded before the check, so it is masked too", () => {
    const encoded = `%74hp_${DemoData.tokens.owner.slice(4)}`
    expect(Texts.decodeSegment(encoded)).toBe(DemoData.tokens.owner)
    expect(Texts.shownPath(`/external-api/v2/${encoded}/me`)).toBe("/external-api/v2/«…»/me")
    expect(Texts.decodeSegment("%E0%A4%A")).toBeUndefined()
    expect(Texts.shownPath("/external-api/%E0%A4%A/me")).toBe("/external-api/«…»/me")
  })

  it("the API's own words and plain words are shown; digits, underscores and other characters are not", () => {
    for (const op of Operations.all) {
      expect(Texts.shownPath(`/external-api/v2/${op.section}/${op.method}`)).toBe(
        `/external-api/v2/${op.section}/${op.method}`
      )
    }
    expect(Texts.unknownSection("botz")).toBe("Раздел «botz» не существует")
    expect(Texts.unknownVersion("v3")).toBe("Неизвестная версия API «v3»")
    expect(Texts.unknownMethod("bots", "x_1")).toBe("Метод «…» не существует в разделе «bots»")
    expect(Texts.isShownSegment("")).toBe(true)
    expect(Texts.isShownSegment("a".repeat(25))).toBe(false)
    expect(Texts.isShownSegment("привет")).toBe(false)
  })

  it("a quoted value is cut at 40 characters, so a text never echoes a whole request", () => {
    const long = "text/" + "x".repeat(100)
    expect(Texts.unsupportedContentType(long)).toBe(`Неподдерживаемый тип содержимого «${long.slice(0, 40)}…»`)
    expect(Texts.notPost("PATCH")).toBe("HTTP-метод «PATCH» не поддерживается: используйте POST")
  })

  it("the limit texts state the limits' numbers", () => {
    expect(Texts.tooManyRequests).toContain(`не более ${Limits.requestsPerWindow} в секунду`)
    expect(Texts.tooManyCreationsMinute).toContain(`не более ${Limits.creationsPerMinute} в минуту`)
    expect(Texts.tooManyCreationsDay).toContain(`не более ${Limits.creationsPerDay} в сутки`)
    expect(Limits.rateWindowMillis).toBe(1_000)
  })

  it("a forbidden character and a forbidden sequence are told apart", () => {
    expect(Texts.forbiddenInName("$")).toBe(`Недопустимый символ "$" в коротком имени`)
    expect(Texts.forbiddenInName("{{")).toBe(`Недопустимая последовательность "{{" в коротком имени`)
  })

  it("every role and every mailing status has a Russian name", () => {
    expect(Object.keys(Texts.roleTitles).sort()).toEqual(
      ["admin", "crm", "dogs", "event", "integrations", "mailer", "stat", "users"]
    )
    expect(Object.keys(Texts.statusNames).map(Number)).toEqual([0, 1, 2, 3, 4, 6, 7])
  })
})
