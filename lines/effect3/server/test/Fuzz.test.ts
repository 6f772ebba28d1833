/**
 * Fuzzing of the reference server with fast-check, in process: arbitrary methods, paths, headers,
 * content types, bodies and parameters go straight into the server's HTTP app as web `Request`s
 * (`HttpServerRequest.fromWeb`), one server and one `TestClock` for the whole run, so 10,000 cases
 * take seconds. The seed is fixed (override with `FUZZ_SEED`) and printed. The run is bounded by its
 * case count; a wall-clock budget, checked between cases and far below the test's timeout, stops it
 * early on a machine too busy to finish (it prints how many cases ran, and that is not a failure).
 */
import { ApiError, Envelope, Operations } from "@community-api/schema"
import { HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Either, FastCheck as fc, SchemaAST, TestClock } from "effect"
import * as DemoFixture from "../src/DemoFixture.js"
import type * as Fixture from "../src/Fixture.js"
import * as ReferenceServer from "../src/ReferenceServer.js"

const seed = Number(process.env.FUZZ_SEED ?? 20261121)
/** The bound of the run: this many cases, unless the budget below is spent first. */
const numRuns = 10_000
/**
 * The wall-clock budget of the cases, checked between two cases. The 10,000 cases take about 15 s
 * alone on an idle machine and about 55 s inside the whole test run (the other packages' tests share
 * the two cores); a machine busy with other work may be many times slower, and then the run stops
 * early rather than reach the test's timeout.
 */
const budgetMillis = 75_000
/**
 * The error codes every stage of the server answers to some generated requests: 1 and 3 the routing,
 * 4 the token, 5 the limits, 7 the parameters, 8 the roles.
 */
const expectedCodes = [1, 3, 4, 5, 7, 8]
/** At least this share of the cases get past every gate and succeed. */
const minAcceptedShare = 1 / 50
/**
 * Far above the budget: for the cases that run before the checks of the distribution could pass
 * (the budget never stops the run before; with the fixed seed that is case 1,036, when the first 5
 * comes) and for the rest of the test.
 */
const testTimeoutMillis = 180_000
/** The server's body bound (an assumption of the server, 1 MiB); the second test below checks it. */
const maxBodyBytes = 1024 * 1024

// A smaller copy of the demo fixture (40 bots instead of 640 in the main community), so that the state
// can be compared after every request cheaply.
const demo = DemoFixture.demoFixture
const isMain = (place: { readonly group_id: number; readonly channel: string }) =>
  place.group_id === DemoFixture.mainCommunity.group_id && place.channel === DemoFixture.mainCommunity.channel
const keptUid = (uid: number) => uid < DemoFixture.subscriberUid + 100 || uid >= DemoFixture.subscriberUid + 1200
const fixture: Fixture.Fixture = {
  ...demo,
  bots: demo.bots.filter((bot) => !isMain(bot) || parseInt(bot.id.slice(2), 16) < 40),
  subscribers: demo.subscribers.map((group) => isMain(group) ? { ...group, uids: group.uids.filter(keptUid) } : group),
  lists: demo.lists.map((list) => ({ ...list, uids: list.uids.filter(keptUid) }))
}

// ---------------------------------------------------------------------------------------------------
// Arbitraries

const tokenValues = Object.values(DemoFixture.tokens)

/** Parameter names every operation declares, read from the contract's payload schemas. */
const declaredNames = [
  ...new Set(Operations.all.flatMap((op) => {
    try {
      return SchemaAST.getPropertySignatures(op.payload.ast).map((p) => String(p.name))
    } catch {
      return []
    }
  }))
]

const notableIds = [
  DemoFixture.enableableBotId,
  DemoFixture.activeBotId,
  DemoFixture.cannotEnableBotId,
  DemoFixture.archivedCommunityBotId,
  DemoFixture.otherCommunityBotId,
  DemoFixture.listId,
  DemoFixture.blacklistId,
  DemoFixture.variableId,
  DemoFixture.communityVariableId,
  DemoFixture.otherCommunityVariableId,
  DemoFixture.mailingId
]

const key = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(...declaredNames) },
  { weight: 1, arbitrary: fc.constant("api_key") },
  { weight: 1, arbitrary: fc.string({ maxLength: 8 }).map((s) => `_${s}`) },
  { weight: 1, arbitrary: fc.constantFrom("__proto__", "constructor", "toString", "hasOwnProperty", "") },
  { weight: 1, arbitrary: fc.string({ maxLength: 12, unit: "grapheme" }) }
)

const hugeNumber = fc.constantFrom(
  1e308,
  -1e308,
  2 ** 53,
  2 ** 53 + 2,
  -(2 ** 31),
  2 ** 31,
  0,
  -1,
  1.5,
  Number.MIN_VALUE,
  "99999999999999999999999",
  "1e400",
  "-0",
  "0x1f",
  " 12 "
)

const text = fc.oneof(
  fc.string({ maxLength: 30, unit: "grapheme" }),
  fc.string({ maxLength: 30, unit: "binary" }),
  fc.string({ minLength: 119, maxLength: 125 }),
  fc.constantFrom(".", "{", "}", "[", "]", "%", "|", "'", "\"", ":", ";", "`", "a_NAME", "\u0000", "\u202e", "🙂", "ё")
)

const leaf: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom<unknown>(...notableIds, ...tokenValues) },
  { weight: 3, arbitrary: fc.constantFrom<unknown>(DemoFixture.mainCommunity.group_id, "VK", "vk", "TG", "Vk ") },
  {
    weight: 2,
    arbitrary: fc.constantFrom<unknown>(DemoFixture.subscriberUid, DemoFixture.otherCommunitySubscriberUid)
  },
  { weight: 3, arbitrary: fc.integer() },
  { weight: 2, arbitrary: hugeNumber },
  { weight: 4, arbitrary: text },
  { weight: 1, arbitrary: fc.constantFrom<unknown>(true, false, null) },
  { weight: 1, arbitrary: fc.hexaString({ minLength: 23, maxLength: 25 }) }
)

const value: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 10, arbitrary: leaf },
  { weight: 1, arbitrary: fc.array(leaf, { maxLength: 3 }) },
  { weight: 1, arbitrary: fc.dictionary(fc.string({ maxLength: 5 }), leaf, { maxKeys: 3 }) }
)

const params = fc.array(fc.tuple(key, value), { maxLength: 6 }).map((entries) => {
  // Own properties only, `__proto__` included, as a JSON body would carry them.
  const out: Record<string, unknown> = {}
  for (const [k, v] of entries) Object.defineProperty(out, k, { value: v, enumerable: true, writable: true })
  return out
})

/** A value that fits a parameter of this name, so that some requests get past decoding to the handler. */
const fittingOf = (name: string): fc.Arbitrary<unknown> => {
  if (name.endsWith("_id") && name !== "group_id") return fc.constantFrom(...notableIds)
  switch (name) {
    case "group_id":
      return fc.constant(DemoFixture.mainCommunity.group_id)
    case "channel":
      return fc.constantFrom("VK", "vk")
    case "uid":
      return fc.constantFrom(DemoFixture.subscriberUid, DemoFixture.subscriberUid + 7)
    case "count":
      return fc.integer({ min: 1, max: 600 })
    case "offset":
      return fc.integer({ min: 0, max: 50 })
    case "status":
    case "active":
    case "archived":
      return fc.integer({ min: 0, max: 7 })
    case "name":
      return fc.stringMatching(/^[a-z][a-z0-9_]{0,15}$/)
    default:
      return text
  }
}

// Built once per name: building an arbitrary (`stringMatching` parses its regex) inside `chain` for every
// case cost a fifth of the run.
const fittingByName = new Map(declaredNames.map((name) => [name, fittingOf(name)]))
const fitting = (name: string): fc.Arbitrary<unknown> => fittingByName.get(name)!

/** The main community and well-typed values for a few declared names: the plausible requests. */
const plausible = fc.subarray(declaredNames, { maxLength: 5 }).chain((names) =>
  fc.tuple(...names.map(fitting)).map((values) => ({
    ...DemoFixture.mainCommunity,
    ...Object.fromEntries(names.map((n, i) => [n, values[i]]))
  }))
)

/** Plausible requests, arbitrary ones, and arbitrary ones in the main community. */
const paramsWithCommunity = fc.oneof(
  plausible,
  params,
  params.map((p) => ({ ...DemoFixture.mainCommunity, ...p }))
)

const asStrings = (p: Record<string, unknown>): Array<[string, string]> =>
  Object.keys(p).map((k) => [k, typeof p[k] === "string" ? p[k] as string : JSON.stringify(p[k]) ?? ""])

type Body =
  | { readonly _tag: "None" }
  | { readonly _tag: "Json"; readonly params: Record<string, unknown> }
  | { readonly _tag: "Text"; readonly text: string; readonly contentType: string | undefined }
  | { readonly _tag: "Form"; readonly params: Record<string, unknown> }
  | { readonly _tag: "Multipart"; readonly params: Record<string, unknown> }
  | { readonly _tag: "Bytes"; readonly bytes: Uint8Array; readonly contentType: string | undefined }
  | { readonly _tag: "Nested"; readonly depth: number; readonly asParam: boolean }
  | { readonly _tag: "Oversize" }

const contentType = fc.oneof(
  fc.constantFrom(
    undefined,
    "application/json",
    "application/json; charset=utf-8",
    "application/vnd.api+json",
    "APPLICATION/JSON",
    "application/x-www-form-urlencoded",
    "multipart/form-data",
    "multipart/form-data; boundary=xyz",
    "text/plain",
    "application/xml",
    "application/octet-stream",
    ";;;",
    ""
  ),
  fc.stringMatching(/^[a-z]{1,8}\/[a-z+.-]{1,12}(; ?[a-z]{1,8}=[a-z0-9]{0,8})?$/)
)

const body: fc.Arbitrary<Body> = fc.oneof(
  { weight: 6, arbitrary: fc.constant<Body>({ _tag: "None" }) },
  { weight: 40, arbitrary: paramsWithCommunity.map((p): Body => ({ _tag: "Json", params: p })) },
  {
    weight: 6,
    arbitrary: fc.tuple(paramsWithCommunity, fc.nat(), contentType).map(([p, cut, ct]): Body => {
      const json = JSON.stringify(p)
      return {
        _tag: "Text",
        text: json.slice(0, cut % (json.length + 1)) + (cut % 3 === 0 ? "," : ""),
        contentType: ct
      }
    })
  },
  {
    weight: 2,
    arbitrary: fc.tuple(fc.string({ maxLength: 40 }), contentType).map(([t, ct]): Body => ({
      _tag: "Text",
      text: t,
      contentType: ct
    }))
  },
  { weight: 12, arbitrary: paramsWithCommunity.map((p): Body => ({ _tag: "Form", params: p })) },
  { weight: 9, arbitrary: paramsWithCommunity.map((p): Body => ({ _tag: "Multipart", params: p })) },
  {
    weight: 6,
    arbitrary: fc.tuple(fc.uint8Array({ maxLength: 200 }), contentType).map(([bytes, ct]): Body => ({
      _tag: "Bytes",
      bytes,
      contentType: ct
    }))
  },
  {
    weight: 3,
    // Up to 20,000 deep: as a whole body, or as the value of a parameter the operation takes.
    arbitrary: fc.tuple(fc.integer({ min: 1, max: 20_000 }), fc.boolean()).map(([depth, asParam]): Body => ({
      _tag: "Nested",
      depth,
      asParam
    }))
  },
  { weight: 1, arbitrary: fc.constant<Body>({ _tag: "Oversize" }) }
)

const operation = fc.constantFrom(...Operations.all)

const path = fc.oneof(
  { weight: 12, arbitrary: operation.map((op) => `/external-api/v2/${op.path}`) },
  { weight: 2, arbitrary: operation.map((op) => `/external-api/${op.path}`) },
  {
    weight: 3,
    arbitrary: fc.tuple(
      fc.constantFrom("/external-api/v2/", "/external-api/", "/external-api/v3/", "/external-api/V2/", "/", "//"),
      fc.oneof(operation.map((op) => op.path as string), fc.string({ maxLength: 20, unit: "grapheme" })),
      fc.constantFrom("", "/", "//", "/x", "?", "#frag", "%2F", "/..")
    ).map(([prefix, middle, suffix]) =>
      `${prefix}${middle.split("/").map((s) => encodeURIComponent(s)).join("/")}${suffix}`
    )
  },
  {
    weight: 2,
    arbitrary: operation.map((op) => `/external-api/v2/${op.section}/${op.method.toUpperCase()}`)
  }
)

const query = fc.oneof(
  { weight: 6, arbitrary: fc.constant("") },
  {
    weight: 2,
    arbitrary: params.map((p) => {
      const search = new URLSearchParams(asStrings(p)).toString()
      return search === "" ? "" : `?${search}`
    })
  },
  { weight: 1, arbitrary: fc.constantFrom(...tokenValues).map((t) => `?api_key=${t}`) },
  { weight: 1, arbitrary: fc.string({ maxLength: 20 }).map((s) => `?${encodeURIComponent(s)}&&=&a=%ZZ`) }
)

const method = fc.oneof(
  { weight: 12, arbitrary: fc.constant("POST") },
  { weight: 3, arbitrary: fc.constantFrom("GET", "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD", "post", "Post") },
  { weight: 1, arbitrary: fc.stringMatching(/^[A-Z]{1,10}$/).filter((m) => !["CONNECT", "TRACE", "TRACK"].includes(m)) }
)

const authorization = fc.oneof(
  { weight: 8, arbitrary: fc.constant(`Bearer ${DemoFixture.tokens.owner}`) },
  { weight: 4, arbitrary: fc.constantFrom(...tokenValues).map((t) => `Bearer ${t}`) },
  { weight: 2, arbitrary: fc.constant(undefined) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      "Bearer",
      "Bearer ",
      "bearer  thp_x",
      "Basic dXNlcjpwYXNz",
      `Bearer ${DemoFixture.tokens.owner} extra`,
      DemoFixture.tokens.owner,
      "Bearer \u00e9\u00e9"
    )
  },
  { weight: 1, arbitrary: fc.stringMatching(/^[ -~]{0,40}$/).map((s) => s.trim()) }
)

const headerName = fc.stringMatching(/^[a-z][a-z0-9-]{0,15}$/).filter((n) =>
  !["content-type", "authorization", "content-length", "host", "transfer-encoding", "connection"].includes(n)
)
const headers = fc.array(
  fc.tuple(
    fc.oneof(headerName, fc.constantFrom("x-forwarded-for", "cookie", "content-encoding", "accept", "traceparent")),
    fc.stringMatching(/^[!-~]{0,30}$/)
  ),
  { maxLength: 4 }
)

const request = fc.record({ method, path, query, authorization, headers, body })
type Case = typeof request extends fc.Arbitrary<infer A> ? A : never

/** The cases of a seed, drawn one at a time as the run asks for them. */
const cases = (seed: number): Iterable<Case> => fc.sample(fc.infiniteStream(request), { seed, numRuns: 1 })[0]!

// ---------------------------------------------------------------------------------------------------
// Building and sending a case

const oversizeBody = new TextEncoder().encode(`{"title":"${"x".repeat(maxBodyBytes)}"}`)

const nested = (depth: number, asParam: boolean) => {
  const inner = "[".repeat(depth) + "]".repeat(depth)
  return asParam ? `{"group_id":${inner},"channel":"VK"}` : `${"{\"a\":".repeat(depth)}1${"}".repeat(depth)}`
}

const toWeb = (c: Case): Effect.Effect<Request> =>
  Effect.promise(async () => {
    const h = new Headers()
    for (const [name, v] of c.headers) h.append(name, v)
    if (c.authorization !== undefined) h.set("authorization", c.authorization)
    let payload: BodyInit | undefined
    let type: string | undefined
    switch (c.body._tag) {
      case "None":
        break
      case "Json":
        payload = JSON.stringify(c.body.params)
        type = "application/json"
        break
      case "Text":
        payload = c.body.text
        type = c.body.contentType
        break
      case "Form":
        payload = new URLSearchParams(asStrings(c.body.params)).toString()
        type = "application/x-www-form-urlencoded"
        break
      case "Multipart": {
        const form = new FormData()
        for (const [k, v] of asStrings(c.body.params)) form.append(k, v)
        const encoded = new Response(form)
        payload = new Uint8Array(await encoded.arrayBuffer())
        type = encoded.headers.get("content-type") ?? undefined
        break
      }
      case "Bytes":
        payload = c.body.bytes as BodyInit
        type = c.body.contentType
        break
      case "Nested":
        payload = nested(c.body.depth, c.body.asParam)
        type = "application/json"
        break
      case "Oversize":
        payload = oversizeBody as BodyInit
        type = "application/json"
        break
    }
    const withBody = payload !== undefined && c.method.toUpperCase() !== "GET" && c.method.toUpperCase() !== "HEAD"
    if (withBody && type !== undefined) h.set("content-type", type)
    return new Request(`http://reference.local${c.path}${c.query}`, {
      method: c.method,
      headers: h,
      body: withBody ? payload! : null
    })
  })

interface Answer {
  readonly status: number
  readonly contentType: string | null
  readonly text: string
}

const send = (web: Request) =>
  ReferenceServer.httpApp.pipe(
    Effect.provideService(HttpServerRequest.HttpServerRequest, HttpServerRequest.fromWeb(web)),
    Effect.scoped,
    Effect.flatMap((response) =>
      Effect.promise(async (): Promise<Answer> => {
        const web = HttpServerResponse.toWeb(response)
        return { status: web.status, contentType: web.headers.get("content-type"), text: await web.text() }
      })
    )
  )

// ---------------------------------------------------------------------------------------------------
// What every answer must satisfy

const tokenPattern = new RegExp(tokenValues.map((t) => t.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|"))
// Internals: stack frames, source paths, JavaScript error names, schema messages, object dumps.
const internals =
  /\n\s+at\s|node_modules|\/work\/|file:\/\/|\.[jt]s:\d|\b\w*Error\b|\bParseError\b|Expected |\[object |undefined|NaN|\bnull\b|\{\s*"_tag"/

/** The operation the server routes a URL to, if any (the URL as the server sees it, normalized). */
const routeOf = (url: string) => {
  const match = /^\/external-api\/(?:v2\/)?([^/]+\/[^/]+)$/.exec(new URL(url).pathname)
  return match === null ? undefined : Operations.byPath.get(match[1]!)
}

/** Plain checks (thousands of `expect`s cost seconds): throws with what is wrong. */
const assert = (condition: boolean, what: string, answer: Answer): void => {
  if (!condition) throw new Error(`${what}: ${answer.status} ${answer.text.slice(0, 300)}`)
}

const check = (web: Request, answer: Answer): "accepted" | "rejected" => {
  assert(answer.status === 200, "HTTP status is not 200", answer)
  assert(answer.contentType?.startsWith("application/json") === true, "not JSON", answer)
  const body = JSON.parse(answer.text) as Record<string, unknown>
  assert(typeof body === "object" && body !== null && !Array.isArray(body), "not an object", answer)
  const op = routeOf(web.url)
  if (body.status === "error") {
    assert(Object.keys(body).sort().join() === "error,error_code,status", "extra or missing fields", answer)
    const code = body.error_code as number
    assert(Number.isInteger(code) && ApiError.isErrorCode(code), "not an error code of the contract", answer)
    // No fault is injected here: a 101 would be a defect reached through input.
    assert(code !== 101, "internal error", answer)
    const text = body.error
    assert(typeof text === "string" && /[а-яё]/i.test(text), "no Russian text", answer)
    // What the server wrote, without the user input it quotes in «…».
    assert(!internals.test((text as string).replace(/«[^»]*»/g, "«»")), "internals leak", answer)
    assert(!tokenPattern.test(text as string), "a token in the text", answer)
    const allowed: ReadonlyArray<number> = op === undefined ? [1, 3] : [...op.errorCodes, 1, 7]
    assert(allowed.includes(code), `code not possible for ${op?.path ?? "an unknown path"}`, answer)
    return "rejected"
  }
  // Only a POST to an operation may succeed, and its answer is that operation's envelope.
  assert(body.status === "ok" && op !== undefined && web.method === "POST", "ok where it cannot be", answer)
  assert(Object.keys(body).every((k) => k === "status" || k === "response"), "extra fields", answer)
  const decoded = Effect.runSync(Effect.either(Envelope.decode(op!)(body)))
  assert(Either.isRight(decoded), `not the envelope of ${op!.path}`, answer)
  return "accepted"
}

interface Tally {
  cases: number
  accepted: number
  rejected: number
  readonly codes: Map<number, number>
}

/**
 * Whether the cases so far meet the checks of the distribution at the end. The budget stops a run
 * only once they do, so that a run cut short is never failed for having been cut short.
 */
const reached = (tally: Tally): boolean =>
  tally.accepted > tally.cases * minAcceptedShare && expectedCodes.every((code) => (tally.codes.get(code) ?? 0) > 0)

/** What a failed case says: where it is in the seed's sequence, why it failed, and the case itself. */
const failure = (index: number, c: Case, defect: unknown): string =>
  `case ${index} of seed ${seed} failed: ${defect instanceof Error ? defect.message : String(defect)}\n` +
  fc.stringify(c).slice(0, 2000)

describe("fuzz", () => {
  it.effect(
    "C2 C3 C4 C5 C6 X1 fuzz: 10,000 arbitrary requests all get HTTP 200 and a valid envelope, no internals, and a rejected one changes no state",
    () =>
      Effect.gen(function*() {
        const server = yield* ReferenceServer.ReferenceServer
        const state = Effect.map(server.snapshot, (s) => JSON.stringify(s))
        let before = yield* state
        const tally: Tally = { cases: 0, accepted: 0, rejected: 0, codes: new Map<number, number>() }

        const sendCase = (c: Case) =>
          Effect.gen(function*() {
            const web = yield* toWeb(c)
            const answer = yield* send(web)
            const verdict = check(web, answer)
            const after = yield* state
            if (verdict === "rejected") {
              assert(after === before, "a rejected request changed the state", answer)
              const code = (JSON.parse(answer.text) as { error_code: number }).error_code
              tally.codes.set(code, (tally.codes.get(code) ?? 0) + 1)
            }
            before = after
            tally[verdict]++
            tally.cases++
            // One second every 80 requests (adjusting the TestClock costs a timer tick, so not after each):
            // the rate window (L1) and the creation minute (L2) refuse some with 5.
            if (tally.cases % 80 === 0) yield* TestClock.adjust("1 second")
          })

        console.log(`fuzz seed ${seed} (FUZZ_SEED to change), ${numRuns} cases, budget ${budgetMillis} ms`)
        const started = Date.now()
        let stoppedEarly = false
        for (const c of cases(seed)) {
          if (tally.cases === numRuns) break
          // Checked between cases: on a machine too busy to finish in the budget the run stops here,
          // which is not a failure; every case that ran was checked in full.
          if (Date.now() - started > budgetMillis && reached(tally)) {
            stoppedEarly = true
            break
          }
          yield* sendCase(c).pipe(
            Effect.catchAllDefect((defect) => Effect.dieMessage(failure(tally.cases + 1, c, defect)))
          )
        }

        console.log(
          `fuzz: ${tally.cases} cases in ${Date.now() - started} ms${
            stoppedEarly ? ` (stopped early: the ${budgetMillis} ms budget was spent)` : ""
          }, ${tally.accepted} accepted, codes ${JSON.stringify([...tally.codes].sort((a, b) => a[0] - b[0]))}`
        )
        expect(stoppedEarly || tally.cases === numRuns).toBe(true)
        // The generators reach past the gates: some requests succeed, and every stage refuses some.
        expect(tally.accepted).toBeGreaterThan(tally.cases * minAcceptedShare)
        for (const code of expectedCodes) expect(tally.codes.get(code) ?? 0).toBeGreaterThan(0)
        // Still serving.
        yield* TestClock.adjust("1 minute")
        const me = yield* send(
          new Request("http://reference.local/external-api/v2/users/me", {
            method: "POST",
            headers: { authorization: `Bearer ${DemoFixture.tokens.owner}` }
          })
        )
        expect(JSON.parse(me.text)).toMatchObject({ status: "ok", response: { user_id: DemoFixture.userIds.owner } })
      }).pipe(Effect.provide(ReferenceServer.layer({ fixture }))),
    testTimeoutMillis
  )

  it.effect("C4 C6 fuzz: the body bound is the one the fuzzer uses (1 MiB), larger bodies get 7", () =>
    Effect.gen(function*() {
      const post = (bytes: number) =>
        send(
          new Request("http://reference.local/external-api/v2/users/me", {
            method: "POST",
            headers: { authorization: `Bearer ${DemoFixture.tokens.owner}`, "content-type": "application/json" },
            body: `{"a":"${"x".repeat(bytes - 8)}"}`
          })
        ).pipe(Effect.map((a) => JSON.parse(a.text) as { status: string; error_code?: number }))
      expect((yield* post(maxBodyBytes)).status).toBe("ok")
      expect((yield* post(maxBodyBytes + 1)).error_code).toBe(7)
    }).pipe(Effect.provide(ReferenceServer.layer({ fixture }))))
})
