/**
 * What a scenario needs of an Effect line, and nothing of Effect: each line implements this once
 * (`test/support/Driver.ts` of its client) and runs every scenario through it in its own test runner.
 *
 * A world is one test clock starting at 0, one server on that clock (the reference server in process,
 * or a scripted one) and fresh limiters; its clients share them. Times are milliseconds on the world's
 * clock, which moves only when the scenario turns it.
 */
import type * as DemoData from "@community-api/core/DemoData"

/** A request as a scripted server received it. */
export interface Received {
  /** When it arrived, on the world's clock. */
  readonly at: number
  /** `section/method`. */
  readonly path: string
  readonly url: string
  readonly body: Readonly<Record<string, unknown>>
  readonly authorization: string | undefined
}

/** What a scripted server does with a request. */
export type Reply =
  /** Answers HTTP 200 with this JSON body. */
  | { readonly _tag: "Json"; readonly body: unknown }
  /** Answers with this text as the body. */
  | { readonly _tag: "Text"; readonly text: string; readonly contentType: string; readonly status: number }
  /** Drops the connection: the client sees a transport failure. */
  | { readonly _tag: "Drop"; readonly reason: string }
  /** Waits on the world's clock, then replies as `then` says (given the time it woke). */
  | { readonly _tag: "Wait"; readonly millis: number; readonly then: Reply | ((at: number) => Reply) }

/** A scripted server: `index` counts the requests that came before. */
export type Script = (request: Received, index: number) => Reply

/** The client's retry schedule, as plain delays between attempts. */
export interface RetryOptions {
  /** The delay before each retry, in order; as many retries as delays. */
  readonly delays: ReadonlyArray<number>
  /** How many times error 5 of an ordinary request is waited out and sent again. */
  readonly limitRetries?: number
}

/** A client's configuration, as plain data; each line builds its own `ClientConfig` from it. */
export interface ClientOptions {
  /** The token; the world's default (the demo owner's, or a scripted server's fake) when left out. */
  readonly token?: string
  readonly baseUrl?: string
  readonly auth?: "header" | "body"
  readonly timeout?: number
  readonly deadline?: number
  readonly maxResponseBytes?: number
  /** The line's default policy when left out; `"never"` for none. */
  readonly retry?: RetryOptions | "never"
  readonly userKey?: string
  readonly onCreationLimit?: "wait" | "fail"
  readonly lane?: "interactive" | "batch"
}

/** A typed failure as the call ended with it: the error object itself, read by its fields. */
export interface Failure {
  readonly _tag: string
  readonly message: string
  readonly [field: string]: unknown
}

/** How a call ended. */
export type Outcome<A = unknown> =
  | { readonly _tag: "Success"; readonly value: A }
  | { readonly _tag: "Failure"; readonly error: Failure }
  | { readonly _tag: "Defect"; readonly defect: unknown }
  | { readonly _tag: "Interrupted" }

/** A call under way on the world's clock; awaiting it gives its outcome (it never rejects). */
export interface Call<A = unknown> extends PromiseLike<Outcome<A>> {
  /** Stops it and waits until it has stopped. */
  readonly interrupt: () => Promise<void>
}

/** A client of the world's server. Paths are `section/method`. */
export interface Client {
  /** The typed method `client.section.method(params)`. */
  readonly call: (path: string, params?: object) => Call
  /** The untyped `client.call(path, params)`, with parameters as the wire takes them. */
  readonly callRaw: (path: string, params?: object) => Call
  /** Every item of `client.streams.section.method(params)`. */
  readonly stream: (path: string, params?: object) => Call<ReadonlyArray<unknown>>
}

/** The reference server's controls, as `ReferenceServer` has them on both lines. */
export interface ServerControls {
  readonly reset: () => Promise<void>
  readonly load: (fixture: DemoData.Fixture) => Promise<void>
  readonly setFaults: (faults: Readonly<Record<string, unknown>>) => Promise<void>
  readonly clearFaults: () => Promise<void>
  readonly snapshot: () => Promise<DemoData.Fixture>
  readonly revokeToken: (token: string) => Promise<void>
  readonly issueToken: (options: Readonly<Record<string, unknown>>) => Promise<string>
  readonly requestCount: () => Promise<number>
  readonly recentRequests: () => Promise<ReadonlyArray<Readonly<Record<string, unknown>>>>
  readonly journal: (filter?: Readonly<Record<string, unknown>>) => Promise<{
    readonly size: number
    readonly dropped: number
    readonly entries: ReadonlyArray<Readonly<Record<string, unknown>>>
  }>
  /** Waits (letting the event loop turn, no time passing) until the server holds `count` waits on the clock. */
  readonly awaitWaits: (count: number) => Promise<void>
}

/** One clock, one server, fresh limiters. */
export interface World {
  /** A client; its options are plain data. */
  readonly client: (options?: ClientOptions) => Promise<Client>
  /** Moves the world's clock forward, running whatever wakes on the way. */
  readonly adjust: (millis: number) => Promise<void>
  /** The world's time. */
  readonly now: () => Promise<number>
}

export interface ReferenceWorld extends World {
  readonly server: ServerControls
}

export interface ScriptedWorld extends World {
  /** Every request the scripted server received, in order. */
  readonly received: ReadonlyArray<Received>
}

/** Options of the reference server in process. */
export interface ReferenceOptions {
  readonly fixture?: DemoData.Fixture
  readonly faults?: Readonly<Record<string, unknown>>
}

/** An Effect line, as the scenarios drive it. */
export interface Line {
  readonly name: "Effect 3" | "Effect 4"
  /** A world over the reference server in process (its base URL and the demo owner's token by default). */
  readonly reference: (options?: ReferenceOptions) => Promise<ReferenceWorld>
  /** A world over a scripted server (its own base URL and a fake token by default). */
  readonly scripted: (script: Script) => Promise<ScriptedWorld>
  /** The line's `Retry.decide`: what the client does after `error` of an operation with these flags. */
  readonly decide: (
    op: { readonly safeToRepeat: boolean; readonly creation: boolean },
    error: { readonly _tag: string; readonly code?: number }
  ) => string
  /** Whether a decoded value is this line's `DateTime`. */
  readonly isDateTime: (value: unknown) => boolean
  /** Ends every world made since the last call (the runner calls it after each scenario). */
  readonly dispose: () => Promise<void>
}
