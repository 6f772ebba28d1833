/**
 * `community-api record` as a user runs it: the real executable records the demo owner's account from
 * a sandbox on a port, and the real `community-api serve --fixture` replays the file on a port of its
 * own. With `--keep-personal-data` every read answers the same in both; with the made-up data, the
 * answers have the same shape (ids, counts, flags, relations, the length of every text) and nothing
 * of the demo's names, phone numbers, e-mail addresses or texts is left in the file. The recording
 * changes nothing where it reads and sends read operations only; the real token never reaches the file.
 *
 * The reads are paced under the sandbox's request limit, by the client in the recording and by a pause
 * between two comparisons here, so that no answer is a rate-limit refusal: the full recording of the
 * demo owner (about 2,200 reads) takes over a minute at 30 reads a second.
 */
import { Operations } from "@community-api/schema"
import * as DemoFixture from "@community-api/server/DemoFixture"
import type * as Fixture from "@community-api/server/Fixture"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import type { ChildProcessByStdio } from "node:child_process"
import { spawn } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import type { Readable, Writable } from "node:stream"
import * as ChildSupport from "../../../lines/effect3/server/test/childSupport.js"
import * as PortSupport from "../../../lines/effect3/server/test/portSupport.js"
import * as ExitCode from "../src/ExitCode.js"
import * as Fakes from "../src/Fakes.js"
import * as Recording from "../src/Recording.js"
import * as InProcess from "./support/InProcess.js"
import { expectProgressBars } from "./support/Outcome.js"
import * as Sandbox from "./support/Sandbox.js"
import * as Spawn from "./support/Spawn.js"

const { demoFixture, subscriberUid, tokens, userIds } = DemoFixture

/** The bound on the two recordings: minutes at the request limit, more on a busy machine. */
const recordingBound = 480_000

/** The bound on a comparison of every read: a few hundred reads, paced. */
const comparisonBound = 180_000

let scratch = ""

beforeAll(() => {
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), "community-api-record-"))
})

afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }))

/** A read as the wire carries it. */
interface Read {
  readonly path: string
  readonly params: Record<string, unknown>
}

/** One read of a server on a port, as `token`: the whole answer (`status` and `response`, or the error). */
const ask = (port: number, token: string, read: Read): Promise<unknown> =>
  Effect.runPromise(
    Effect.map(
      PortSupport.send(port, {
        path: `/external-api/v2/${read.path}`,
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify(read.params)
      }),
      (answer) => answer.body as unknown
    )
  )

const pause = (millis: number) => new Promise((resolve) => setTimeout(resolve, millis))

/** Each read asked of both servers; 40 ms between two, under the limit of 30 a second of each. */
const askBoth = async (
  reads: ReadonlyArray<Read>,
  source: { readonly port: number; readonly token: string },
  replay: { readonly port: number; readonly token: string }
) => {
  const answers: Array<{ read: Read; source: unknown; replay: unknown }> = []
  for (const read of reads) {
    const [fromSource, fromReplay] = await Promise.all([
      ask(source.port, source.token, read),
      ask(replay.port, replay.token, read)
    ])
    answers.push({ read, source: fromSource, replay: fromReplay })
    await pause(40)
  }
  return answers
}

const owned = <A extends { readonly group_id: number; readonly channel: string }>(items: ReadonlyArray<A>) => {
  const mine = new Set(
    demoFixture.communities.filter((c) => c.owner_id === userIds.owner).map((c) => `${c.channel}:${c.group_id}`)
  )
  return items.filter((item) => mine.has(`${item.channel}:${item.group_id}`))
}

const every = <A>(items: ReadonlyArray<A>, step: number) => items.filter((_, i) => i % step === 0)

/**
 * A read of every read operation of the contract the sandbox answers, over the owner's world: each
 * list of each community (both pages of the 640 bots, a filter), objects by id (the other account's
 * too, which both answer as missing), the members of each list (the blacklist, which both refuse),
 * the bots of the first `subscribers` subscribers and of one in a list and no bot, and variable values.
 */
const readsOfEveryOperation = (subscribers: number): ReadonlyArray<Read> => {
  const places = owned(demoFixture.communities).map((c) => ({ group_id: c.group_id, channel: c.channel }))
  const main = DemoFixture.mainCommunity
  const uids = Array.from({ length: subscribers }, (_, k) => subscriberUid + k)
  return [
    { path: "users/me", params: {} },
    { path: "groups/get", params: { count: 500 } },
    { path: "groups/get", params: { channel: "VK" } },
    ...places.flatMap((place) => [
      { path: "groups/getEmployees", params: { ...place, count: 500 } },
      { path: "bots/get", params: { ...place, count: 500 } },
      { path: "bots/get", params: { ...place, count: 500, offset: 500 } },
      { path: "bots/get", params: { ...place, active: 1, count: 50 } },
      { path: "mailings/get", params: { ...place, count: 500 } },
      { path: "mailings/get", params: { ...place, status: 3 } },
      { path: "lists/get", params: { ...place, count: 500 } },
      { path: "vars/list", params: { ...place, count: 500 } },
      { path: "globalVars/list", params: { ...place, count: 500 } },
      { path: "landings/get", params: { ...place, count: 500 } }
    ]),
    ...[...every(owned(demoFixture.bots), 37).map((bot) => bot.id), DemoFixture.otherCommunityBotId].map((id) => ({
      path: "bots/getById",
      params: { bot_id: id }
    })),
    ...[...every(owned(demoFixture.mailings), 5).map((m) => m.id), demoFixture.mailings.at(-1)!.id].map((id) => ({
      path: "mailings/getById",
      params: { mailing_id: id }
    })),
    ...demoFixture.lists.flatMap((list) => [
      { path: "lists/getUsers", params: { list_id: list.id, count: 500 } },
      { path: "lists/getUsers", params: { list_id: list.id, offset: 100, count: 50 } }
    ]),
    ...[...uids, subscriberUid + 250].map((uid) => ({ path: "contacts/getBots", params: { ...main, uid } })),
    ...demoFixture.variables.flatMap((variable) =>
      [subscriberUid, subscriberUid + 1].map((uid) => ({ path: "vars/get", params: { var_id: variable.id, uid } }))
    ),
    ...demoFixture.communityVariables.map((variable) => ({
      path: "globalVars/get",
      params: { var_id: variable.id }
    }))
  ]
}

/** The shape of an answer: every text replaced by its length, but ids (24 hexadecimal characters). */
const shape = (value: unknown): unknown => {
  if (typeof value === "string") return /^[0-9a-f]{24}$/.test(value) ? value : `text of ${value.length}`
  if (Array.isArray(value)) return value.map(shape)
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, shape(item)]))
  }
  return value
}

/** The demo's names, phone numbers, e-mail addresses and texts: what a faked recording must not keep. */
const personal: ReadonlyArray<string> = [
  ...demoFixture.users.map((user) => user.name),
  ...demoFixture.communities.flatMap((c) => [c.name, c.photo]),
  ...demoFixture.bots.map((bot) => bot.name),
  ...demoFixture.botSubscribers.flatMap((entry) => entry.steps.map((step) => step.title)),
  ...demoFixture.mailings.map((mailing) => mailing.title),
  ...demoFixture.lists.map((list) => list.name),
  ...demoFixture.variables.flatMap((variable) => [variable.title, ...Object.values(variable.values)]),
  ...demoFixture.communityVariables.flatMap((variable) => [variable.title, variable.value]),
  ...demoFixture.landings.flatMap((landing) => [landing.title, landing.url])
]

/** The words of five letters or more in the demo's personal data, an address's scheme left out. */
const personalWords = [
  ...new Set(personal.flatMap((text) => text.replace(/^https?:\/\//, "").match(/[\p{L}]{5,}/gu) ?? []))
]

/** Every text of a JSON value (not its keys). */
const stringValues = (json: unknown): ReadonlyArray<string> => {
  if (typeof json === "string") return [json]
  if (Array.isArray(json)) return json.flatMap(stringValues)
  if (json !== null && typeof json === "object") return Object.values(json).flatMap(stringValues)
  return []
}

/** A sandbox started by `community-api serve --fixture`, as a user starts it. */
const replaying = async (fixture: string) => {
  const child = spawn(process.execPath, [Spawn.bin, "serve", "--port", "0", "--quiet", "--fixture", fixture], {
    stdio: "pipe"
  })
  const watched = ChildSupport.watch(child)
  await watched.printed("Ctrl-C stops the server.", 60_000)
  const port = Number(/http:\/\/127\.0\.0\.1:(\d+)\/external-api\/v2/.exec(watched.stdout())![1])
  return { child, port }
}

const stop = (child: ChildProcessByStdio<Writable, Readable, Readable> | undefined) => {
  if (child !== undefined && child.exitCode === null && child.signalCode === null) child.kill("SIGKILL")
}

const readFixture = (file: string) => JSON.parse(fs.readFileSync(file, "utf8")) as Fakes.Complete

describe("record from a sandbox on a port, replayed by serve --fixture", () => {
  /** The path of every request each server answered. */
  const served = { kept: [] as Array<string>, faked: [] as Array<string> }
  const kept = Sandbox.sandboxOnPort({ onRequest: (entry) => void served.kept.push(entry.path) })
  const faked = Sandbox.sandboxOnPort({ onRequest: (entry) => void served.faked.push(entry.path) })
  const port = (baseUrl: string) => Number(new URL(baseUrl).port)
  const outcome: Partial<Record<"kept" | "faked", { stdout: string; stderr: string; code: number | null }>> = {}
  const replays: Partial<Record<"kept" | "faked", Awaited<ReturnType<typeof replaying>>>> = {}
  const snapshots: Record<string, Array<Fixture.Fixture>> = { kept: [], faked: [] }

  beforeAll(async () => {
    snapshots.kept!.push(await kept.control((server) => server.snapshot))
    snapshots.faked!.push(await faked.control((server) => server.snapshot))
    // Two sources, so that the two recordings do not share one rate window.
    const [keptRun, fakedRun] = await Promise.all([
      Spawn.run(["record", "--out", path.join(scratch, "kept.json"), "--keep-personal-data"], {
        env: kept.env(tokens.owner)
      }),
      Spawn.run(["record", "--out", path.join(scratch, "faked.json"), "--max-subscribers", "20"], {
        env: faked.env(tokens.owner)
      })
    ])
    outcome.kept = keptRun
    outcome.faked = fakedRun
    snapshots.kept!.push(await kept.control((server) => server.snapshot))
    snapshots.faked!.push(await faked.control((server) => server.snapshot))
    if (keptRun.code === 0) replays.kept = await replaying(path.join(scratch, "kept.json"))
    if (fakedRun.code === 0) replays.faked = await replaying(path.join(scratch, "faked.json"))
  }, recordingBound)

  afterAll(() => {
    stop(replays.kept?.child)
    stop(replays.faked?.child)
  })

  const tokenOf = (file: string) => {
    const fixture = readFixture(path.join(scratch, file))
    expect(fixture.tokens).toHaveLength(1)
    return fixture.tokens[0]!.token
  }

  it("both recordings succeed, send reads only, change nothing, and print the sandbox token once", async () => {
    for (const which of ["kept", "faked"] as const) {
      const result = outcome[which]!
      expect(result.code, result.stderr).toBe(ExitCode.kinds.success.code)
      // Not a terminal: no progress bar, nothing on standard error.
      expect(result.stderr).toBe("")
      const token = tokenOf(`${which}.json`)
      expect(token.startsWith("thp_")).toBe(true)
      expect(token).not.toBe(tokens.owner)
      expect(result.stdout.split(token)).toHaveLength(2)
      expect(result.stdout).toContain(`(user ${userIds.owner})`)
      expect(result.stdout).toContain("7 communities")
      expect(result.stdout).toContain(`${DemoFixture.mainBotCount + 25 + 3} bots`)
      // Reads only: the world it read is as it was.
      const [before, after] = snapshots[which]!
      expect(after).toEqual(before)
      const text = fs.readFileSync(path.join(scratch, `${which}.json`), "utf8")
      for (const real of Object.values(tokens)) expect(text).not.toContain(real)
    }
    // Every call either server answered, not the recent ones only: each an operation declared to only read.
    for (const which of ["kept", "faked"] as const) {
      const paths = [...new Set(served[which])]
      expect(paths.length).toBeGreaterThan(0)
      for (const requested of paths) {
        expect(Operations.byPath.get(requested.replace(/^\/external-api\/v2\//, ""))?.reads, requested).toBe(true)
      }
    }
    for (const op of Recording.reads) expect(op.reads, op.path).toBe(true)
  })

  it("E1 E2 E3 E4 E5 E7 E9 E10 E12 E14 E16 with --keep-personal-data every read answers the same", async () => {
    expect(replays.kept, outcome.kept?.stderr).toBeDefined()
    const answers = await askBoth(
      readsOfEveryOperation(25),
      { port: port(kept.baseUrl()), token: tokens.owner },
      { port: replays.kept!.port, token: tokenOf("kept.json") }
    )
    const paths = new Set(answers.map((answer) => answer.read.path))
    // Every read operation of the contract that the sandbox answers.
    expect(paths.size).toBe(15)
    for (const answer of answers) expect(answer.replay, JSON.stringify(answer.read)).toEqual(answer.source)
    // Not only refusals: the answers carry the demo's data.
    const succeeded = answers.filter((answer) => (answer.source as { status: string }).status === "ok")
    expect(succeeded.length).toBeGreaterThan(answers.length * 0.8)
    expect(JSON.stringify(answers.map((answer) => answer.replay))).toContain("Раф")
  }, comparisonBound)

  it("E1 E2 E3 E4 E5 E7 E9 E10 E12 E14 E16 with made-up data the answers have the same shape", async () => {
    expect(replays.faked, outcome.faked?.stderr).toBeDefined()
    const answers = await askBoth(
      readsOfEveryOperation(20),
      { port: port(faked.baseUrl()), token: tokens.owner },
      { port: replays.faked!.port, token: tokenOf("faked.json") }
    )
    for (const answer of answers) {
      expect(shape(answer.replay), JSON.stringify(answer.read)).toEqual(shape(answer.source))
    }
    // The texts were replaced: the shapes are equal, the answers with a name or a title are not.
    const named = answers.filter((answer) =>
      ["bots/getById", "mailings/getById", "vars/get", "globalVars/get"].includes(answer.read.path) &&
      (answer.source as { status: string }).status === "ok"
    )
    expect(named.length).toBeGreaterThan(30)
    for (const answer of named) expect(answer.replay, JSON.stringify(answer.read)).not.toEqual(answer.source)
  }, comparisonBound)

  it("with made-up data no name, phone number, e-mail address or text of the account is left in the file", () => {
    const fixture = readFixture(path.join(scratch, "faked.json"))
    const values = stringValues(fixture)
    expect(personal.length).toBeGreaterThan(700)
    for (const original of personal) expect(values, original).not.toContain(original)
    expect(personalWords.length).toBeGreaterThan(100)
    for (const word of personalWords) expect(values.filter((value) => value.includes(word)), word).toEqual([])
    // What is kept: ids, counts and relations.
    const original = readFixture(path.join(scratch, "kept.json"))
    expect(fixture.bots.map((bot) => bot.id)).toEqual(original.bots.map((bot) => bot.id))
    expect(fixture.lists.map((list) => list.uids)).toEqual(original.lists.map((list) => list.uids))
    expect(fixture.botSubscribers.map((entry) => [entry.bot_id, entry.uid])).toEqual(
      original.botSubscribers.filter((entry) => entry.uid < subscriberUid + 20).map((
        entry
      ) => [entry.bot_id, entry.uid])
    )
    expect(fixture.variables.map((variable) => Object.keys(variable.values ?? {}))).toEqual(
      original.variables.map((variable) => Object.keys(variable.values ?? {}))
    )
    const address = fixture.communityVariables.find((variable) => variable.name === "address")!.value!
    expect(address).toMatch(/^\p{Lu}\p{Ll}+, \p{Ll}+\. \p{Lu}\p{Ll}+, \d\d$/u)
  })
})

describe("record in process, on the embedded sandbox", () => {
  it("a progress bar of the reads on a terminal, erased at the end; the roles of an employee read from what it could read", async () => {
    const out = path.join(scratch, "stat.json")
    const result = await InProcess.run(["record", "--out", out], {
      env: { COMMUNITY_API_TOKEN: tokens.stat },
      terminal: { stderr: true }
    })
    expect(result.code, result.stderr).toBe(ExitCode.kinds.success.code)
    expectProgressBars(result.stderr, "reads")
    expect(fs.existsSync(`${out}.partial`)).toBe(false)
    const fixture = readFixture(out)
    // The stat employee may list neither the employees, the bots nor the lists: its role is inferred.
    expect(fixture.employees.map((e) => [e.channel, e.group_id, e.user_id, e.roles])).toEqual([
      ["OK", DemoFixture.bookClub.group_id, userIds.stat, ["stat"]],
      ["VK", DemoFixture.mainCommunity.group_id, userIds.stat, ["stat"]]
    ])
    expect(fixture.communities.every((c) => c.owner_id !== userIds.stat)).toBe(true)
    expect(fixture.landings.length).toBeGreaterThan(0)
    expect(fixture.bots).toEqual([])
  })

  it("record --help: the whole command, what it reads and makes up, and where the sandbox token comes from", async () => {
    const help = await InProcess.run(["record", "--help"])
    expect(help.code).toBe(ExitCode.kinds.success.code)
    const text = help.stdout.replace(/\s+/g, " ")
    expect(text).toContain(
      "community-api record --out FILE [--keep-personal-data] [--seed N] [--max-subscribers N] [--token-stdin] " +
        "[--retries N]"
    )
    expect(text).toContain("Only operations that change nothing are sent.")
    expect(text).toContain("a sandbox token of its own, printed once at the end")
    const root = (await InProcess.run(["--help"])).stdout.replace(/\s+/g, " ")
    expect(root).toContain("community-api record --out FILE [flags]")
  })

  it("without --out, or with a file that cannot be written, a usage error before anything is read", async () => {
    const missing = await InProcess.run(["record"])
    expect(missing.code).toBe(ExitCode.kinds.usage.code)
    expect(missing.stderr).toBe("community-api: usage error: record needs --out (The file to write the fixture to)\n")
    const nowhere = await InProcess.run(["record", "--out", path.join(scratch, "no", "such", "f.json")])
    expect(nowhere.code).toBe(ExitCode.kinds.usage.code)
    expect(nowhere.stderr).toContain("record --out: cannot write")
    expect(nowhere.stderr).toContain("no such folder")
    expect(nowhere.stderr).not.toContain("embedded sandbox")
  })
})

describe("made-up data", () => {
  const fakes = Fakes.make(7)

  it("keeps the shape: length, alphabet, case, digits and punctuation; the same text, the same fake", () => {
    const phone = fakes.text("+7 495 000-00-00")
    expect(phone).toMatch(/^\+\d \d{3} \d{3}-\d{2}-\d{2}$/)
    expect(phone).not.toBe("+7 495 000-00-00")
    const mail = fakes.text("anna.petrova@mail.ru")
    expect(mail).toMatch(/^[a-z]{4}\.[a-z]{7}@[a-z]{4}\.[a-z]{2}$/)
    const name = fakes.text("Анна Смирнова")
    expect(name).toMatch(/^[А-Я][а-я]{3} [А-Я][а-я]{7}$/)
    expect(name).not.toContain("Анна")
    expect(fakes.text("Анна Смирнова")).toBe(name)
    expect(Fakes.make(8).text("Анна Смирнова")).not.toBe(name)
    expect(fakes.text("Раф")).not.toBe("Раф")
    expect(fakes.text(" — ")).toBe(" — ")
    expect(fakes.url("https://landing.example.com/zerno/1.html")).toMatch(
      /^https:\/\/[a-z]+\.[a-z]+\.[a-z]+\/[a-z]+\/\d\.html$/
    )
    expect(fakes.unknown({ landing: "1d0000000000000000000001", note: "Кофе" })).toEqual({
      landing: "1d0000000000000000000001",
      note: fakes.text("Кофе")
    })
  })

  it("a sandbox token of the recorded token's kind, never one of the real ones, the same for the same seed", () => {
    expect(Recording.sandboxToken(1, 1001, "personal_token")).toMatch(/^thp_sandbox_[0-9a-f]{32}$/)
    expect(Recording.sandboxToken(1, 1001, "application_token")).toMatch(/^tha_sandbox_[0-9a-f]{32}$/)
    expect(Recording.sandboxToken(1, 1001, "account_key")).toMatch(/^[0-9a-f]{32}$/)
    expect(Recording.sandboxToken(1, 1001, "personal_token")).toBe(Recording.sandboxToken(1, 1001, "personal_token"))
    expect(Recording.sandboxToken(2, 1001, "personal_token")).not.toBe(
      Recording.sandboxToken(1, 1001, "personal_token")
    )
  })
})
