/**
 * B8 startup (`pnpm bench startup`): how long the command line and the sandbox take from a cold start
 * of their process, next to floors measured in the same run.
 *
 * Each round runs, one after the other and each as a fresh process: the floor `node -e
 * "import('effect')"`; `community-api users me --json` against the reference server on a port; the same
 * in embedded mode (no base URL); `npx -y pnpm@10 --version`; and `npx -y pnpm@10 start` until its
 * first answer (the port polled every 20 ms), then Ctrl-C (SIGINT to its process group), checking that
 * it exits 0 with no error from pnpm. The first round warms the disk cache and is not counted.
 */
import * as DemoFixture from "@community-api/server/DemoFixture"
import { Effect } from "effect"
import { execFileSync, spawn } from "node:child_process"
import * as fs from "node:fs"
import { performance } from "node:perf_hooks"
import { fileURLToPath } from "node:url"
import { freePort } from "../../scripts/redis.mjs"
import * as Child from "./internal/Child.js"
import * as Progress from "./internal/Progress.js"
import type { Result } from "./internal/Result.js"
import * as Servers from "./internal/Servers.js"
import { median, round } from "./internal/Stats.js"

const root = fileURLToPath(new URL("../../", import.meta.url))
/** The command as installed: the `bin` of the command line's package. */
const cliBin = fileURLToPath(new URL("../../apps/cli/bin/community-api.js", import.meta.url))
/** A folder whose `node_modules` holds `effect`, for the floor. */
const cliDir = fileURLToPath(new URL("../../apps/cli/", import.meta.url))

const rounds = 7
const pnpm = ["-y", "pnpm@10"] as const
const pollMillis = 20
/** What the sandbox prints when Ctrl-C stops it. */
const stoppedLine = "Sandbox stopped."
/** How long `pnpm start` may take to answer before the run counts as failed. */
const startLimitMillis = 120_000

const targets = {
  portTimesFloor: 3,
  portMaxRssMiB: 120,
  embeddedTimesFloor: 6,
  embeddedMaxRssMiB: 200,
  startSecondsOverPnpm: 2
} as const

const answers = (url: string): Promise<boolean> =>
  fetch(url, {
    method: "POST",
    headers: { authorization: `Bearer ${DemoFixture.tokens.owner}`, "content-type": "application/json" },
    body: "{}",
    signal: AbortSignal.timeout(2_000)
  }).then((response) => response.text().then(() => true), () => false)

/** One `pnpm start`: time to the first answer, then how it ends on Ctrl-C. */
interface StartSample {
  readonly firstAnswerMs: number
  readonly code: number | null
  readonly signal: NodeJS.Signals | null
  readonly output: string
}

const startUntilAnswer = async (): Promise<StartSample> => {
  const port = await freePort()
  const url = `http://127.0.0.1:${port}/external-api/v2/users/me`
  let output = ""
  const started = performance.now()
  // Its own process group, as a shell gives a foreground job: Ctrl-C reaches npx, pnpm and the server.
  const child = spawn("npx", [...pnpm, "start"], {
    cwd: root,
    env: Child.userEnv({ PORT: String(port) }),
    detached: true,
    stdio: ["ignore", "pipe", "pipe"]
  })
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (output += chunk))
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (output += chunk))
  const closed = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on("close", (code, signal) => resolve({ code, signal }))
  )
  let exited = false
  void closed.then(() => (exited = true))
  let firstAnswerMs = Number.NaN
  while (!exited && performance.now() - started < startLimitMillis) {
    if (await answers(url)) {
      firstAnswerMs = performance.now() - started
      break
    }
    await new Promise((resolve) => setTimeout(resolve, pollMillis))
  }
  if (!exited) process.kill(-child.pid!, "SIGINT")
  const end = await closed
  if (Number.isNaN(firstAnswerMs)) throw new Error(`pnpm start did not answer:\n${output}`)
  return { firstAnswerMs, ...end, output }
}

const ok = (sample: Child.Sample, what: string): Child.Sample => {
  if (sample.code !== 0) throw new Error(`${what} exited ${sample.code}:\n${sample.stdout}\n${sample.stderr}`)
  return sample
}

const medianOf = (samples: ReadonlyArray<Child.Sample>, pick: (s: Child.Sample) => number | undefined) => {
  const values = samples.map(pick).filter((v): v is number => v !== undefined)
  return values.length === 0 ? Number.NaN : median(values)
}

/** Runs B8. */
export const run: Effect.Effect<Result, unknown> = Effect.scoped(Effect.gen(function*() {
  // The command as `pnpm cli` runs it: compiled from the current sources (`pnpm start` checks its own).
  yield* Effect.sync(() =>
    execFileSync(process.execPath, ["scripts/bundle.mjs", "--if-stale", "apps/cli"], { cwd: root, stdio: "inherit" })
  )
  const server = yield* Servers.reference(DemoFixture.demoFixture)
  const portEnv = Child.userEnv({
    COMMUNITY_API_BASE_URL: server.baseUrl,
    COMMUNITY_API_TOKEN: DemoFixture.tokens.owner
  })
  const embeddedEnv = Child.userEnv()
  const floor: Array<Child.Sample> = []
  const port: Array<Child.Sample> = []
  const embedded: Array<Child.Sample> = []
  const pnpmVersion: Array<Child.Sample> = []
  const start: Array<StartSample> = []
  for (let i = 0; i <= rounds; i++) {
    const counted = i > 0
    yield* Progress.line(counted ? `B8 round ${i} of ${rounds}` : "B8 warm-up round")
    const round = yield* Effect.promise(async () => ({
      floor: ok(await Child.run("node", ["-e", "import('effect')"], { cwd: cliDir, env: embeddedEnv }), "the floor"),
      port: ok(await Child.run("node", [cliBin, "users", "me", "--json"], { cwd: root, env: portEnv }), "port"),
      embedded: ok(
        await Child.run("node", [cliBin, "users", "me", "--json"], { cwd: root, env: embeddedEnv }),
        "embedded"
      ),
      pnpmVersion: ok(await Child.run("npx", [...pnpm, "--version"], { cwd: root, env: embeddedEnv }), "pnpm"),
      start: await startUntilAnswer()
    }))
    if (!counted) continue
    floor.push(round.floor)
    port.push(round.port)
    embedded.push(round.embedded)
    pnpmVersion.push(round.pnpmVersion)
    start.push(round.start)
  }
  const floorMs = medianOf(floor, (s) => s.wallMs)
  const portMs = medianOf(port, (s) => s.wallMs)
  const embeddedMs = medianOf(embedded, (s) => s.wallMs)
  const portRss = medianOf(port, (s) => s.maxRssMiB)
  const embeddedRss = medianOf(embedded, (s) => s.maxRssMiB)
  const floorRss = medianOf(floor, (s) => s.maxRssMiB)
  const pnpmMs = medianOf(pnpmVersion, (s) => s.wallMs)
  const startMs = median(start.map((s) => s.firstAnswerMs))
  // What the user sees after Ctrl-C: the sandbox's one line, and no failure reported by pnpm.
  const oneLine = start.filter((s) =>
    s.output.split("\n").filter((line) => line.replace("\r", "") === stoppedLine).length === 1
  ).length
  const elifecycle = start.filter((s) => s.output.includes("ELIFECYCLE")).length
  const ctrlCClean = oneLine === start.length && elifecycle === 0
  // npx runs pnpm through `sh -c`: where that shell is dash, it dies of the Ctrl-C itself, and npx,
  // which exits as its child did, with it, whatever pnpm and the sandbox do.
  const npxExits = [...new Set(start.map((s) => String(s.code ?? s.signal)))].join(" or ")
  const npxSignalled = start.some((s) => s.signal !== null)
  const binSh = fs.realpathSync("/bin/sh")
  const portRatio = portMs / floorMs
  const embeddedRatio = embeddedMs / floorMs
  const startOver = (startMs - pnpmMs) / 1000
  const rssMet = (value: number, limit: number) => Number.isNaN(value) || value <= limit
  const checks = {
    port: portRatio <= targets.portTimesFloor && rssMet(portRss, targets.portMaxRssMiB),
    embedded: embeddedRatio <= targets.embeddedTimesFloor && rssMet(embeddedRss, targets.embeddedMaxRssMiB),
    start: startOver <= targets.startSecondsOverPnpm,
    ctrlC: ctrlCClean
  }
  const missed = Object.entries(checks).filter(([, met]) => !met).map(([name]) => name)
  const ms = (value: number) => `${Math.round(value)} ms`
  const mib = (value: number) => Number.isNaN(value) ? "n/a" : `${Math.round(value)} MiB`
  return {
    id: "B8",
    title: "Startup",
    method: `${rounds} cold rounds after a warm-up round, each command a fresh process, medians: ` +
      "node -e \"import('effect')\" (the floor); community-api users me --json against the reference server " +
      "on a loopback port, then in embedded mode; npx -y pnpm@10 --version; npx -y pnpm@10 start until the " +
      `port answers (polled every ${pollMillis} ms), then SIGINT to its process group. Peak RSS from ` +
      `${Child.measuresRss ? "/usr/bin/time" : "nowhere (no /usr/bin/time here)"}.`,
    figures: {
      rounds,
      floorMs: round(floorMs, 0),
      floorMaxRssMiB: round(floorRss, 1),
      portMs: round(portMs, 0),
      portTimesFloor: round(portRatio),
      portMaxRssMiB: round(portRss, 1),
      embeddedMs: round(embeddedMs, 0),
      embeddedTimesFloor: round(embeddedRatio),
      embeddedMaxRssMiB: round(embeddedRss, 1),
      pnpmVersionMs: round(pnpmMs, 0),
      startFirstAnswerMs: round(startMs, 0),
      startSecondsOverPnpm: round(startOver),
      ctrlCOneLine: `${oneLine} of ${start.length}`,
      ctrlCElifecycle: `${elifecycle} of ${start.length}`,
      ctrlCNpxExit: npxExits,
      binSh
    },
    target: `port ≤ ${targets.portTimesFloor}× floor and ≤ ${targets.portMaxRssMiB} MiB; embedded ≤ ` +
      `${targets.embeddedTimesFloor}× and ≤ ${targets.embeddedMaxRssMiB} MiB; start ≤ pnpm --version + ` +
      `${targets.startSecondsOverPnpm} s; Ctrl-C: one line, no error from pnpm`,
    met: missed.length === 0,
    headline: `floor ${ms(floorMs)}; port ${ms(portMs)} (${round(portRatio)}×, ${mib(portRss)}); embedded ` +
      `${ms(embeddedMs)} (${round(embeddedRatio)}×, ${mib(embeddedRss)}); start ${ms(startMs)} vs pnpm ` +
      `--version ${ms(pnpmMs)} (+${round(startOver)} s); Ctrl-C: one line in ${oneLine} of ${start.length}, ` +
      `ELIFECYCLE in ${elifecycle}`,
    ...(missed.length === 0 && !npxSignalled ? {} : {
      note: [
        ...(missed.length === 0 ? [] : [`missed: ${missed.join(", ")}`]),
        ...(npxSignalled ?
          [
            `npx itself ended by ${npxExits} after Ctrl-C: it runs pnpm through sh -c and /bin/sh here is ` +
            `${binSh}, which dies of the signal, so npx re-raises it (pnpm and the sandbox exit 0)`
          ] :
          [])
      ].join("; ")
    })
  }
}))
