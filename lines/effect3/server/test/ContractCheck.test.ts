/**
 * The reference server's answers on the demo data, compared with the contract as plain data (the
 * core's `ContractCheck` over the OpenAPI document this line builds): every reading operation, called
 * with every demo role, answers as its declaration says, successes and errors alike.
 */
import * as ContractCheck from "@community-api/core/ContractCheck"
import { OpenApi, Operations } from "@community-api/schema"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import * as DemoFixture from "../src/DemoFixture.js"
import { call, main, tokens, withServer } from "./support.js"

const contracts = ContractCheck.fromDocument(OpenApi.make())
const { demoFixture, subscriberUid } = DemoFixture

const every = <A>(items: ReadonlyArray<A>, step: number) => items.filter((_, i) => i % step === 0)

/** The parameters each reading operation is called with: a few of each kind of object of the demo. */
const callsOf = (path: string): ReadonlyArray<Record<string, unknown>> => {
  const page = { ...main, count: 500 }
  const uids = [subscriberUid, subscriberUid + 1, subscriberUid + 250]
  switch (path) {
    case "users/me":
      return [{}]
    case "groups/get":
      return [{ count: 500 }]
    case "bots/getById":
    case "bots/getSteps":
      return every(demoFixture.bots, 97).map((bot) => ({ bot_id: bot.id }))
    case "mailings/getById":
      return every(demoFixture.mailings, 5).map((mailing) => ({ mailing_id: mailing.id }))
    case "lists/getUsers":
      return demoFixture.lists.map((list) => ({ list_id: list.id, count: 500 }))
    case "contacts/getBots":
    case "contacts/getById":
    case "contacts/getVars":
    case "contacts/getLists":
      return uids.map((uid) => ({ ...main, uid }))
    case "vars/get":
      return demoFixture.variables.flatMap((variable) => uids.map((uid) => ({ var_id: variable.id, uid })))
    case "globalVars/get":
      return demoFixture.communityVariables.map((variable) => ({ var_id: variable.id }))
    default:
      return [page]
  }
}

describe("the demo account's answers and the contract", () => {
  it.effect(
    "every reading operation answers every demo role as the contract declares",
    () =>
      withServer()(Effect.gen(function*() {
        const verdicts: Array<{ path: string; token: string; verdict: ContractCheck.Verdict }> = []
        const answered = new Set<string>()
        for (const op of Operations.all.filter((op) => op.reads)) {
          const contract = contracts.get(op.path)!
          for (const token of [tokens.owner, tokens.admin, tokens.mailer, tokens.users, tokens.stat, tokens.noRole]) {
            for (const params of callsOf(op.path)) {
              const answer = yield* call(op.path, params, { token })
              if (answer.body.status === "ok") answered.add(op.path)
              verdicts.push({ path: op.path, token, verdict: ContractCheck.check(contract, answer.body) })
            }
          }
        }
        expect(verdicts.filter((entry) => entry.verdict._tag !== "Conforms")).toEqual([])
        // Every operation the sandbox models answered with data at least once.
        expect([...answered].sort()).toEqual(
          [
            "users/me",
            "groups/get",
            "groups/getEmployees",
            "bots/get",
            "bots/getById",
            "mailings/get",
            "mailings/getById",
            "lists/get",
            "lists/getUsers",
            "contacts/getBots",
            "vars/list",
            "vars/get",
            "globalVars/list",
            "globalVars/get",
            "landings/get"
          ].sort()
        )
      })),
    60_000
  )
})
