/**
 * One process of a user on the Effect 3 line, for the scenarios of limits shared through Redis
 * (`SharedLimits`, `RedisCluster`): run as a real Node process from a bundle of this file by the
 * harness (`tests/client-behaviour/src/Processes.ts`, which defines its jobs and report). It builds
 * its client with the limiters of its job and does the job (`tests/client-behaviour/src/Child.ts`).
 */
import { GroupId } from "@community-api/schema/Ids"
import { FetchHttpClient } from "@effect/platform"
import { Cause, Duration, Effect, Exit, Layer, Redacted } from "effect"
import * as Child from "../../../../../tests/client-behaviour/src/Child.js"
import * as CommunityApiClient from "../../src/CommunityApiClient.js"
import * as CreationQuota from "../../src/CreationQuota.js"
import * as Pacing from "../../src/Pacing.js"

const job = Child.job()
const modules = { Cause, CreationQuota, Duration, Effect, Exit, Layer, Pacing, Redacted, fork: Effect.fork }

const program = Effect.gen(function*() {
  const client = yield* CommunityApiClient.make(Child.config(modules, job))
  const me = () => client.users.me()
  const createList = (params: { group_id: number; channel: string; name: string }) =>
    client.lists.create({ ...params, group_id: GroupId.make(params.group_id) } as never)
  yield* Child.run(modules, job, { me, createList }, yield* Pacing.Pacing) as Effect.Effect<void>
})

const layer: Layer.Layer<any> = Layer.merge(Child.limiters(modules, job), FetchHttpClient.layer)
Effect.runPromiseExit(program.pipe(Effect.provide(layer))).then((exit) =>
  Child.exit(Exit.isFailure(exit) ? Cause.pretty(exit.cause) : undefined)
)
