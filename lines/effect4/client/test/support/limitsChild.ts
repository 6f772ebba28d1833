/**
 * One process of a user on the Effect 4 line, for the mixed-fleet test and the scenarios of limits
 * shared through Redis (`SharedLimits`, `RedisCluster`), bundled and started by the harness
 * (`tests/client-behaviour/src/Processes.ts`): the same jobs, words and report as the Effect 3 line's
 * child (`tests/client-behaviour/src/Child.ts` does them), so that a test starts processes of both
 * lines alike.
 */
import { Cause, Duration, Effect, Exit, Layer, Redacted } from "effect"
import { FetchHttpClient } from "effect/http"
import * as Child from "../../../../../tests/client-behaviour/src/Child.js"
import * as CommunityApiClient from "../../src/CommunityApiClient.js"
import * as CreationQuota from "../../src/CreationQuota.js"
import * as Pacing from "../../src/Pacing.js"

const job = Child.job()
const modules = { Cause, CreationQuota, Duration, Effect, Exit, Layer, Pacing, Redacted, fork: Effect.forkChild }

const program = Effect.gen(function*() {
  const client = yield* CommunityApiClient.make(Child.config(modules, job))
  const me = () => client.users.me()
  const createList = (params: { group_id: number; channel: string; name: string }) =>
    client.lists.create(params as never)
  yield* Child.run(modules, job, { me, createList }, yield* Effect.service(Pacing.Pacing)) as Effect.Effect<void>
})

const layer: Layer.Layer<any> = Layer.merge(Child.limiters(modules, job), FetchHttpClient.layer)
Effect.runPromiseExit(program.pipe(Effect.provide(layer))).then((exit) =>
  Child.exit(Exit.isFailure(exit) ? Cause.pretty(exit.cause) : undefined)
)
