import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Option, Redacted } from "effect"
import { HttpClient, HttpClientResponse } from "effect/http"
import suite from "../../../../tests/client-behaviour/scenarios/Security.js"
import * as Lines from "../../../../tests/client-behaviour/src/Lines.js"
import { me } from "../../../../tests/client-behaviour/src/Scenario.js"
import * as CommunityApiClient from "../src/CommunityApiClient.js"
import * as CreationQuota from "../src/CreationQuota.js"
import * as Pacing from "../src/Pacing.js"
import * as Retry from "../src/Retry.js"
import { run } from "./support/Driver.js"
import * as RecordingTracer from "./support/RecordingTracer.js"

run(suite)

/** Whether a span is made at all: the line's tracer, and the current span its `HttpClient` sees. */
describe("Security", () => {
  it.effect("with no tracer installed neither the client nor its HttpClient makes a span; with one, both do", () => {
    const seen: Array<{ readonly span: string | undefined; readonly traceparent: string | undefined }> = []
    const answering = HttpClient.make((request) =>
      Effect.map(Effect.option(Effect.currentSpan), (span) => {
        seen.push({
          span: Option.getOrUndefined(Option.map(span, (s) => s.name)),
          traceparent: request.headers["traceparent"]
        })
        return HttpClientResponse.fromWeb(
          request,
          new Response(JSON.stringify({ status: "ok", response: me }), {
            status: 200,
            headers: { "content-type": "application/json" }
          })
        )
      })
    )
    const tracing = RecordingTracer.make()
    const call = Effect.gen(function*() {
      const client = yield* CommunityApiClient.CommunityApiClient
      return yield* client.users.me()
    }).pipe(
      Effect.provide(
        CommunityApiClient.layer({
          baseUrl: Lines.scriptedServer.baseUrl,
          token: Redacted.make(Lines.scriptedServer.token),
          retry: Retry.defaultPolicy
        }).pipe(Layer.provide(
          Layer.mergeAll(Layer.succeed(HttpClient.HttpClient, answering), Pacing.layer(), CreationQuota.layer())
        ))
      )
    )
    return Effect.gen(function*() {
      yield* call
      yield* Effect.provide(call, tracing.layer)
      expect(seen).toHaveLength(2)
      // No span, and so no trace of one in the request's headers.
      expect(seen[0]).toEqual({ span: undefined, traceparent: undefined })
      expect(seen[1]!.span).toBeDefined()
      expect(seen[1]!.traceparent).toBeDefined()
      expect(tracing.spans.map((s) => s.name)).toContain("CommunityApiClient.users.me")
    })
  })
})
