/**
 * (The Effect 4 line's port of the Effect 3 line's suite of the same name.)
 *
 * The client against the reference server with injected faults, in process on the `TestClock`:
 * a mixed workload under 30% error 9 and random latency gives the same results as without faults;
 * an ambiguous 101 on creations never makes an object twice; dropped connections are retried for
 * reads and turn creations into a typed "outcome unknown" error.
 */
import * as Demo from "@community-api/core/DemoData"
import { Ids, Operations } from "@community-api/effect4-schema"
import * as ReferenceServer from "@community-api/effect4-server/ReferenceServer"
import { describe, expect, it } from "@effect/vitest"
import { Duration, Effect, Random, Result, Schedule, Schema } from "effect"
import { TestClock } from "effect/testing"
import type * as CommunityApiClient from "../src/CommunityApiClient.js"
import * as Reference from "./support/Reference.js"

const main = {
  group_id: Schema.decodeSync(Ids.GroupId)(Demo.mainCommunity.group_id),
  channel: Demo.mainCommunity.channel
}
const creationPaths = Operations.all.filter((op) => op.creation).map((op) => op.path)

/**
 * More attempts than the default (13 instead of 6), short delays: at 30% error 9 an operation then fails
 * all its attempts with a probability of 0.3^13, so 1,000 operations complete.
 */
const patient = {
  retry: {
    // 0.1 s doubling, jittered (0.8 to 1.2 of it), each delay at most 2 s; at most 12 retries.
    schedule: Schedule.recurs(12).pipe(
      Schedule.addDelay(({ attempt }) =>
        Effect.map(
          Random.nextBetween(0.8, 1.2),
          (jitter) => Duration.min(Duration.millis(100 * 2 ** (attempt - 1) * jitter), Duration.seconds(2))
        )
      )
    )
  }
} satisfies Partial<CommunityApiClient.ClientConfig>

/**
 * `patient`, with time to wait for the creation quota: 60 creations at 20 a minute take minutes, and a
 * call that waits for its quota past the default deadline (120 s) fails with the deadline's error, which
 * is not what the 101 workload is about.
 */
const unhurried = { ...patient, deadline: Duration.minutes(10) } satisfies Partial<CommunityApiClient.ClientConfig>

/** Runs `effect` in a fiber, moving the `TestClock` a second at a time until it is done. */
const drive = <A, E>(effect: Effect.Effect<A, E>, maxSeconds = 3600) =>
  Effect.gen(function*() {
    const fiber = yield* Effect.forkChild(effect)
    for (let second = 0; second < maxSeconds; second++) {
      const exit = fiber.pollUnsafe()
      if (exit !== undefined) return yield* exit
      yield* TestClock.adjust(Duration.seconds(1))
    }
    return yield* Effect.die(new Error(`not done within ${maxSeconds} simulated seconds`))
  })

/** `expect(actual).toEqual(expected)`, as a value for the workload's checks. */
const same = (actual: unknown, expected: unknown): boolean => {
  expect(actual).toEqual(expected)
  return true
}

const snapshot = Effect.flatMap(ReferenceServer.ReferenceServer, (server) => server.snapshot)

/** How many objects of any kind a creation may make carry `name`. */
const objectsNamed = (name: string) =>
  Effect.map(
    snapshot,
    (state) => [...state.lists, ...state.variables, ...state.communityVariables].filter((o) => o.name === name).length
  )

/**
 * The bound on a hang of the shorter workloads below: seconds on an idle machine, the TestClock waiting
 * a timer tick for fibers to settle after each sleep, stretched on a machine busy with other work. No
 * assertion depends on it.
 */
const simulation = 120_000

describe("Client under faults", () => {
  it.effect(
    "A6 X1 L1 L2 under 30% error 9 and random latency a mixed workload of 1,000 operations by four users completes with correct results",
    () =>
      Effect.gen(function*() {
        const server = yield* ReferenceServer.ReferenceServer
        // Four users, so that the workload is not all paced by one user's 30 requests per second:
        // everyone, the mailer section, the users section.
        const [owner, admin, mailer, users] = yield* Effect.forEach(
          [Demo.tokens.owner, Demo.tokens.admin, Demo.tokens.mailer, Demo.tokens.users],
          (token) => Reference.as(token, patient)
        )
        const everyone = [owner!, admin!, mailer!, users!]
        const mailers = [owner!, admin!, mailer!]
        const usersSection = [owner!, admin!, users!]
        const state = yield* server.snapshot
        const mainBots = state.bots.filter((b) => b.group_id === main.group_id && b.channel === main.channel)
        const toEnable = mainBots.filter((b) => b.active === 0 && b.archived === 0 && b.can_enable).slice(0, 100)
        const readBots = mainBots.slice(300, 310).map((b) => Schema.decodeSync(Ids.BotId)(b.id))
        const listed = state.lists.find((l) => l.id === Demo.listId)!.uids
        const freshUids = Array.from({ length: 1250 }, (_, i) => Demo.subscriberUid + i)
          .filter((uid) => !listed.includes(uid))
          .slice(0, 100)
        const drink = {
          var_id: Schema.decodeSync(Ids.VariableId)(Demo.variableId),
          uid: Schema.decodeSync(Ids.Uid)(Demo.subscriberUid)
        }
        // What reads answer without faults.
        const expected = {
          groups: yield* Effect.forEach(everyone, (client) => client.groups.get()),
          mailings: yield* owner!.mailings.get(main),
          landings: yield* owner!.landings.get(main),
          globalVars: yield* owner!.globalVars.list(main),
          bots: yield* Effect.forEach(readBots, (bot_id) => owner!.bots.getById({ bot_id })),
          drink: yield* owner!.vars.get(drink)
        }
        yield* TestClock.adjust(Duration.seconds(2))
        const before = yield* server.requestCount

        yield* server.setFaults({
          keyServiceUnavailable: { probability: 0.3, seed: 9 },
          latency: { min: 0, max: 250, seed: 7 }
        })
        // Ten kinds of operation, 100 of each, 16 at a time; every result is checked against the expectation.
        const operation = (i: number): Effect.Effect<boolean, unknown> => {
          const k = Math.floor(i / 10)
          switch (i % 10) {
            case 0:
              return Effect.map(everyone[k % 4]!.users.me(), (me) => typeof me.user_id === "number")
            case 1:
              return Effect.map(everyone[k % 4]!.groups.get(), (page) => same(page, expected.groups[k % 4]))
            case 2:
              return Effect.map(
                mailers[k % 3]!.bots.getById({ bot_id: readBots[k % readBots.length]! }),
                (bot) => same(bot, expected.bots[k % readBots.length])
              )
            case 3:
              return Effect.map(mailers[k % 3]!.mailings.get(main), (page) => same(page, expected.mailings))
            case 4:
              return Effect.map(everyone[k % 4]!.landings.get(main), (page) => same(page, expected.landings))
            case 5:
              // 50 creations by three users: each user's creation minute (20) is enough.
              return k % 2 === 0
                ? Effect.map(
                  usersSection[k % 3]!.vars.create({ ...main, title: `Нагрузка ${k}`, name: `load_${k}` }),
                  (created) => created.name === `load_${k}` && created.title === `Нагрузка ${k}`
                )
                : Effect.map(everyone[k % 4]!.users.me(), (me) => typeof me.user_id === "number")
            case 6:
              return Effect.map(
                mailers[k % 3]!.bots.enable({ bot_id: Schema.decodeSync(Ids.BotId)(toEnable[k]!.id) }),
                (bot) => bot.id === toEnable[k]!.id && bot.active === 1
              )
            case 7:
              return Effect.as(
                usersSection[k % 3]!.lists.addUser({
                  list_id: Schema.decodeSync(Ids.ListId)(Demo.listId),
                  uid: Schema.decodeSync(Ids.Uid)(freshUids[k]!)
                }),
                true
              )
            case 8:
              return Effect.map(usersSection[k % 3]!.vars.get(drink), (value) => same(value, expected.drink))
            default:
              return Effect.map(usersSection[k % 3]!.globalVars.list(main), (page) => same(page, expected.globalVars))
          }
        }
        const results = yield* drive(
          Effect.forEach(Array.from({ length: 1000 }, (_, i) => i), operation, { concurrency: 16 })
        )
        expect(results).toHaveLength(1000)
        expect(results.every((ok) => ok)).toBe(true)

        // Faults really happened: more requests than operations.
        yield* server.clearFaults
        expect((yield* server.requestCount) - before).toBeGreaterThan(1200)
        const after = yield* server.snapshot
        // Every creation made exactly one object; every enable and addUser took effect.
        for (let k = 0; k < 100; k += 2) {
          expect(after.variables.filter((v) => v.name === `load_${k}`)).toHaveLength(1)
        }
        const active = new Map(after.bots.map((b) => [b.id, b.active]))
        expect(toEnable.every((b) => active.get(b.id) === 1)).toBe(true)
        const uids = after.lists.find((l) => l.id === Demo.listId)!.uids
        expect(freshUids.every((uid) => uids.includes(uid))).toBe(true)
        expect(uids).toHaveLength(new Set(uids).size)
      }).pipe(Effect.provide(Reference.environment())),
    // About 20 s on an idle machine, most of it the TestClock waiting a timer tick for the fibers to
    // settle after each of some thousands of sleeps; a machine busy with other work stretches each tick.
    300_000
  )

  it.effect(
    "X1 E11 with 101 after the action on creations, no object is ever created twice",
    () =>
      Effect.gen(function*() {
        const server = yield* ReferenceServer.ReferenceServer
        const client = yield* Reference.as(Demo.tokens.owner, unhurried)
        yield* server.setFaults({
          internalError: { probability: 0.4, seed: 101, paths: creationPaths, afterAction: true },
          keyServiceUnavailable: { probability: 0.2, seed: 3 }
        })
        // The three creations give different results; only the failures matter here.
        const create = (i: number): Effect.Effect<unknown, { readonly _tag: string; readonly message: string }> => {
          const name = `once_${i}`
          switch (i % 3) {
            case 0:
              return client.vars.create({ ...main, title: "Однажды", name })
            case 1:
              return client.lists.create({ ...main, name })
            default:
              return client.globalVars.create({ ...main, title: "Однажды", name })
          }
        }
        const results = yield* drive(
          Effect.forEach(Array.from({ length: 60 }, (_, i) => i), (i) => Effect.result(create(i)), { concurrency: 8 })
        )
        const failures = results.filter(Result.isFailure).map((r) => r.failure)
        expect(failures.length).toBeGreaterThan(10)
        for (const failure of failures) {
          expect(failure._tag).toBe("OutcomeUnknownError")
          expect(failure.message).toContain("outcome is unknown")
        }
        // 101 after the action: each attempt that reached the handler made its object, and none was sent again.
        for (let i = 0; i < 60; i++) expect(yield* objectsNamed(`once_${i}`)).toBe(1)
        const log = yield* server.recentRequests
        const handled = log.filter((e) => creationPaths.some((p) => e.path.endsWith(p)) && e.outcome !== 9)
        expect(handled).toHaveLength(60)
        expect(handled.filter((e) => e.outcome === 101)).toHaveLength(failures.length)
      }).pipe(Effect.provide(Reference.environment())),
    simulation
  )

  it.effect(
    "X1 with dropped connections reads are retried and creations fail typed: the outcome is unknown",
    () =>
      Effect.gen(function*() {
        const server = yield* ReferenceServer.ReferenceServer
        const client = yield* Reference.as(Demo.tokens.owner, patient)
        const readPaths = ["users/me", "groups/get", "vars/list", "bots/getById"]
        const bot_id = Schema.decodeSync(Ids.BotId)(Demo.activeBotId)
        const expectedBot = yield* client.bots.getById({ bot_id })
        const variables = yield* client.vars.list(main)
        let created = 0
        for (let round = 0; round < 10; round++) {
          // Reads: the next 6 reads are dropped; each of the 8 is retried until it gets its answer.
          yield* server.setFaults({ dropConnection: { next: 6, paths: readPaths } })
          const reads = yield* drive(Effect.all([
            Effect.map(client.users.me(), (me) => me.user_id === Demo.userIds.owner),
            Effect.map(client.groups.get(), (page) => page.total > 0),
            Effect.map(client.bots.getById({ bot_id }), (bot) => same(bot, expectedBot)),
            Effect.map(client.vars.list(main), (page) => page.total === variables.total + created),
            Effect.map(client.users.me(), (me) => me.user_id === Demo.userIds.owner),
            Effect.map(client.groups.get(), (page) => page.total > 0),
            Effect.map(client.bots.getById({ bot_id }), (bot) => bot.id === bot_id),
            Effect.map(client.vars.list(main), (page) => page.items.length > 0)
          ], { concurrency: "unbounded" }))
          expect(reads).toEqual(Array(8).fill(true))
          // Creations: every one is dropped, before the action in even rounds and after it in odd ones.
          const afterAction = round % 2 === 1
          yield* server.setFaults({ dropConnection: { next: 3, paths: creationPaths, afterAction } })
          const names = [0, 1, 2].map((i) => `dropped_${round}_${i}`)
          const errors = yield* drive(Effect.all([
            Effect.flip(client.vars.create({ ...main, title: "Обрыв", name: names[0]! })),
            Effect.flip(client.lists.create({ ...main, name: names[1]! })),
            Effect.flip(client.globalVars.create({ ...main, title: "Обрыв", name: names[2]! }))
          ], { concurrency: "unbounded" }))
          for (const error of errors) {
            expect(error._tag).toBe("OutcomeUnknownError")
            expect(error.message).toMatch(/outcome is unknown \(transport: .*\)/)
          }
          // Sent once: made once after the action, not at all before it.
          for (const name of names) expect(yield* objectsNamed(name)).toBe(afterAction ? 1 : 0)
          if (afterAction) created++
          yield* TestClock.adjust(Duration.minutes(1))
        }
        yield* server.clearFaults
        expect((yield* client.vars.list(main)).total).toBe(variables.total + created)
      }).pipe(Effect.provide(Reference.environment())),
    simulation
  )
})
