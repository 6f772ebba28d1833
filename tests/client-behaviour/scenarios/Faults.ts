/**
 * The client against the reference server with injected faults, in process on the test clock:
 * a mixed workload under 30% error 9 and random latency gives the same results as without faults;
 * an ambiguous 101 on creations never makes an object twice; dropped connections are retried for
 * reads and turn creations into a typed "outcome unknown" error.
 */
import * as Demo from "@community-api/core/DemoData"
import * as Operations from "@community-api/core/Operations"
import type { Call, Client, Outcome, ReferenceWorld } from "../src/Driver.js"
import { assert, failed, scenario, succeeded, suite } from "../src/Scenario.js"
import { drive, forEach } from "../src/Workload.js"

const main = { group_id: Demo.mainCommunity.group_id, channel: Demo.mainCommunity.channel }
const creationPaths = Operations.all.filter((op) => op.creation).map((op) => op.path)

/**
 * More attempts than the default (13 instead of 6), short delays: at 30% error 9 an operation then fails
 * all its attempts with a probability of 0.3^13, so 1,000 operations complete. 0.1 s doubling, jittered,
 * each delay at most 2 s.
 */
const patient = {
  retry: { delays: Array.from({ length: 12 }, (_, k) => 100 * 2 ** k), jittered: true, maxDelayMillis: 2_000 }
}

/**
 * `patient`, with time to wait for the creation quota: 60 creations at 20 a minute take minutes, and a
 * call that waits for its quota past the default deadline (120 s) fails with the deadline's error, which
 * is not what the 101 workload is about.
 */
const unhurried = { ...patient, deadline: 600_000 }

/** `assert.deepEqual(actual, expected)`, as a value for the workload's checks. */
const same = (actual: unknown, expected: unknown): boolean => {
  assert.deepEqual(actual, expected)
  return true
}

/** The value of a call that must succeed, read through `f`. */
const map = async <A, B>(call: Call, f: (value: A) => B): Promise<B> => f(await succeeded(call) as A)

/** What the checks read of a user, a page, and a bot or a created object. */
type Me = { readonly user_id: number }
type Page = { readonly total: number; readonly items: ReadonlyArray<unknown> }
type Named = { readonly id: number | string; readonly name: string; readonly title: string; readonly active: number }

/** How many objects of any kind a creation may make carry `name`. */
const objectsNamed = async (world: ReferenceWorld, name: string) => {
  const state = await world.server.snapshot()
  return [...state.lists, ...state.variables, ...state.communityVariables].filter((o) => o.name === name).length
}

/**
 * The bound on a hang of the shorter workloads below: seconds on an idle machine, the test clock waiting
 * a timer tick for fibers to settle after each sleep, stretched on a machine busy with other work. No
 * assertion depends on it.
 */
const simulation = 120_000

export default suite("Client under faults", [
  scenario(
    "A6 X1 L1 L2 under 30% error 9 and random latency a mixed workload of 1,000 operations by four users completes with correct results",
    async (line) => {
      const world = await line.reference()
      const server = world.server
      // Four users, so that the workload is not all paced by one user's 30 requests per second:
      // everyone, the mailer section, the users section.
      const [owner, admin, mailer, users] = await Promise.all(
        [Demo.tokens.owner, Demo.tokens.admin, Demo.tokens.mailer, Demo.tokens.users].map((token) =>
          world.client({ token, ...patient })
        )
      ) as [Client, Client, Client, Client]
      const everyone = [owner, admin, mailer, users]
      const mailers = [owner, admin, mailer]
      const usersSection = [owner, admin, users]
      const state = await server.snapshot()
      const mainBots = state.bots.filter((b) => b.group_id === main.group_id && b.channel === main.channel)
      const toEnable = mainBots.filter((b) => b.active === 0 && b.archived === 0 && b.can_enable).slice(0, 100)
      const readBots = mainBots.slice(300, 310).map((b) => b.id)
      const listed = state.lists.find((l) => l.id === Demo.listId)!.uids
      const freshUids = Array.from({ length: 1250 }, (_, i) => Demo.subscriberUid + i)
        .filter((uid) => !listed.includes(uid))
        .slice(0, 100)
      const drink = { var_id: Demo.variableId, uid: Demo.subscriberUid }
      // What reads answer without faults.
      const expected = {
        groups: await Promise.all(everyone.map((client) => succeeded(client.call("groups/get")))),
        mailings: await succeeded(owner.call("mailings/get", main)),
        landings: await succeeded(owner.call("landings/get", main)),
        globalVars: await succeeded(owner.call("globalVars/list", main)),
        bots: await Promise.all(readBots.map((bot_id) => succeeded(owner.call("bots/getById", { bot_id })))),
        drink: await succeeded(owner.call("vars/get", drink))
      }
      await world.adjust(2_000)
      const before = await server.requestCount()

      await server.setFaults({
        keyServiceUnavailable: { probability: 0.3, seed: 9 },
        latency: { min: 0, max: 250, seed: 7 }
      })
      // Ten kinds of operation, 100 of each, 16 at a time; every result is checked against the expectation.
      const operation = (i: number): Promise<boolean> => {
        const k = Math.floor(i / 10)
        switch (i % 10) {
          case 0:
            return map(everyone[k % 4]!.call("users/me"), (me: Me) => typeof me.user_id === "number")
          case 1:
            return map(everyone[k % 4]!.call("groups/get"), (page) => same(page, expected.groups[k % 4]))
          case 2:
            return map(
              mailers[k % 3]!.call("bots/getById", { bot_id: readBots[k % readBots.length]! }),
              (bot) => same(bot, expected.bots[k % readBots.length])
            )
          case 3:
            return map(mailers[k % 3]!.call("mailings/get", main), (page) => same(page, expected.mailings))
          case 4:
            return map(everyone[k % 4]!.call("landings/get", main), (page) => same(page, expected.landings))
          case 5:
            // 50 creations by three users: each user's creation minute (20) is enough.
            return k % 2 === 0
              ? map(
                usersSection[k % 3]!.call("vars/create", { ...main, title: `Нагрузка ${k}`, name: `load_${k}` }),
                (created: Named) => created.name === `load_${k}` && created.title === `Нагрузка ${k}`
              )
              : map(everyone[k % 4]!.call("users/me"), (me: Me) => typeof me.user_id === "number")
          case 6:
            return map(
              mailers[k % 3]!.call("bots/enable", { bot_id: toEnable[k]!.id }),
              (bot: Named) => bot.id === toEnable[k]!.id && bot.active === 1
            )
          case 7:
            return map(
              usersSection[k % 3]!.call("lists/addUser", { list_id: Demo.listId, uid: freshUids[k]! }),
              () => true
            )
          case 8:
            return map(usersSection[k % 3]!.call("vars/get", drink), (value) => same(value, expected.drink))
          default:
            return map(usersSection[k % 3]!.call("globalVars/list", main), (page) => same(page, expected.globalVars))
        }
      }
      const results = await drive(world, forEach(1000, 16, operation))
      assert.equal(results.length, 1000)
      assert.equal(results.every((ok) => ok), true)

      // Faults really happened: more requests than operations.
      await server.clearFaults()
      assert.ok((await server.requestCount()) - before > 1200)
      const after = await server.snapshot()
      // Every creation made exactly one object; every enable and addUser took effect.
      for (let k = 0; k < 100; k += 2) {
        assert.equal(after.variables.filter((v) => v.name === `load_${k}`).length, 1)
      }
      const active = new Map(after.bots.map((b) => [b.id, b.active]))
      assert.equal(toEnable.every((b) => active.get(b.id) === 1), true)
      const uids = after.lists.find((l) => l.id === Demo.listId)!.uids
      assert.equal(freshUids.every((uid) => uids.includes(uid)), true)
      assert.equal(uids.length, new Set(uids).size)
    },
    // About 20 s on an idle machine, most of it the test clock waiting a timer tick for the fibers to
    // settle after each of some thousands of sleeps; a machine busy with other work stretches each tick.
    300_000
  ),

  scenario(
    "X1 E11 with 101 after the action on creations, no object is ever created twice",
    async (line) => {
      const world = await line.reference()
      const server = world.server
      const client = await world.client({ token: Demo.tokens.owner, ...unhurried })
      await server.setFaults({
        internalError: { probability: 0.4, seed: 101, paths: creationPaths, afterAction: true },
        keyServiceUnavailable: { probability: 0.2, seed: 3 }
      })
      // The three creations give different results; only the failures matter here.
      const create = (i: number): Call => {
        const name = `once_${i}`
        switch (i % 3) {
          case 0:
            return client.call("vars/create", { ...main, title: "Однажды", name })
          case 1:
            return client.call("lists/create", { ...main, name })
          default:
            return client.call("globalVars/create", { ...main, title: "Однажды", name })
        }
      }
      const results: Array<Outcome> = await drive(world, forEach(60, 8, async (i) => await create(i)))
      for (const result of results) assert.ok(result._tag === "Success" || result._tag === "Failure", result._tag)
      const failures = results.flatMap((r) => r._tag === "Failure" ? [r.error] : [])
      assert.ok(failures.length > 10, `${failures.length} failures`)
      for (const failure of failures) {
        assert.equal(failure._tag, "OutcomeUnknownError")
        assert.ok(failure.message.includes("outcome is unknown"), failure.message)
      }
      // 101 after the action: each attempt that reached the handler made its object, and none was sent again.
      for (let i = 0; i < 60; i++) assert.equal(await objectsNamed(world, `once_${i}`), 1)
      const log = await server.recentRequests()
      const handled = log.filter((e) => creationPaths.some((p) => String(e["path"]).endsWith(p)) && e["outcome"] !== 9)
      assert.equal(handled.length, 60)
      assert.equal(handled.filter((e) => e["outcome"] === 101).length, failures.length)
    },
    simulation
  ),

  scenario(
    "X1 with dropped connections reads are retried and creations fail typed: the outcome is unknown",
    async (line) => {
      const world = await line.reference()
      const server = world.server
      const client = await world.client({ token: Demo.tokens.owner, ...patient })
      const readPaths = ["users/me", "groups/get", "vars/list", "bots/getById"]
      const bot_id = Demo.activeBotId
      const expectedBot = await succeeded(client.call("bots/getById", { bot_id }))
      const variables = await succeeded(client.call("vars/list", main)) as Page
      let created = 0
      for (let round = 0; round < 10; round++) {
        // Reads: the next 6 reads are dropped; each of the 8 is retried until it gets its answer.
        await server.setFaults({ dropConnection: { next: 6, paths: readPaths } })
        const reads = await drive(
          world,
          Promise.all([
            map(client.call("users/me"), (me: Me) => me.user_id === Demo.userIds.owner),
            map(client.call("groups/get"), (page: Page) => page.total > 0),
            map(client.call("bots/getById", { bot_id }), (bot) => same(bot, expectedBot)),
            map(client.call("vars/list", main), (page: Page) => page.total === variables.total + created),
            map(client.call("users/me"), (me: Me) => me.user_id === Demo.userIds.owner),
            map(client.call("groups/get"), (page: Page) => page.total > 0),
            map(client.call("bots/getById", { bot_id }), (bot: Named) => bot.id === bot_id),
            map(client.call("vars/list", main), (page: Page) => page.items.length > 0)
          ])
        )
        assert.deepEqual(reads, Array(8).fill(true))
        // Creations: every one is dropped, before the action in even rounds and after it in odd ones.
        const afterAction = round % 2 === 1
        await server.setFaults({ dropConnection: { next: 3, paths: creationPaths, afterAction } })
        const names = [0, 1, 2].map((i) => `dropped_${round}_${i}`)
        const errors = await drive(
          world,
          Promise.all([
            failed(client.call("vars/create", { ...main, title: "Обрыв", name: names[0]! })),
            failed(client.call("lists/create", { ...main, name: names[1]! })),
            failed(client.call("globalVars/create", { ...main, title: "Обрыв", name: names[2]! }))
          ])
        )
        for (const error of errors) {
          assert.equal(error._tag, "OutcomeUnknownError")
          assert.match(error.message, /outcome is unknown \(transport: .*\)/)
        }
        // Sent once: made once after the action, not at all before it.
        for (const name of names) assert.equal(await objectsNamed(world, name), afterAction ? 1 : 0)
        if (afterAction) created++
        await world.adjust(60_000)
      }
      await server.clearFaults()
      assert.equal((await succeeded(client.call("vars/list", main)) as Page).total, variables.total + created)
    },
    simulation
  )
])
