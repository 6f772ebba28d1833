/**
 * The reference server's engine, bundled from `@community-api/server` with the Effect 3 runtime it
 * runs on (`scripts/engine.mjs`): only what this package reaches, in types of no Effect line.
 */
import type * as CoreClock from "@community-api/core/Clock"
import type * as DemoData from "@community-api/core/DemoData"

/** One request the server answered: the journal's entry (the Effect 3 line's `RequestLogEntry`). */
export interface RequestLogEntry {
  /** When the request arrived, in milliseconds since the epoch, on the server's clock. */
  readonly at: number
  readonly path: string
  /** The operation, `section/method`; absent for a path that names none. */
  readonly operation?: string
  /** The caller's user id, once its token was accepted (never the token). */
  readonly user?: number
  /** The parameters, every secret masked; absent when answered before they were read. */
  readonly params?: Readonly<Record<string, unknown>>
  readonly outcome: number | "ok" | "dropped"
  readonly millis: number
}

/** What the journal is filtered by. */
export interface JournalFilter {
  readonly operation?: string
  readonly user?: number
  readonly outcome?: number | "ok" | "dropped"
  /** Entries that arrived at this time or later, in milliseconds on the server's clock. */
  readonly since?: number
}

/** The journal: the entries kept that pass a filter, newest last; the ring's size and what it dropped. */
export interface RequestJournal {
  readonly size: number
  readonly dropped: number
  readonly entries: ReadonlyArray<RequestLogEntry>
}

/** One counter of a user's limits: the count, the limit, when it is back to zero (epoch ms). */
export interface LimitCount {
  readonly count: number
  readonly limit: number
  readonly resetsAt: number
}

/** A user's limits: the last second's requests, the minute's and the day's creations. */
export interface UserLimits {
  readonly user: number
  readonly second: LimitCount
  readonly minute: LimitCount
  readonly day: LimitCount
}

/** Options of the server. */
export interface Options {
  /** The state to start from; the demo fixture when omitted. */
  readonly fixture?: DemoData.Fixture
  /** Faults on from the start. */
  readonly faults?: FaultSettings
  /** Called with one line per request. */
  readonly onRequest?: (entry: RequestLogEntry) => void
  /** The token the control routes ask for. */
  readonly controlToken?: string
  /** The server's clock, given from outside. */
  readonly clock?: CoreClock.Clock
  /** The clock of the request rate and the injected latency, when not the server's. */
  readonly rateClock?: CoreClock.Clock
}

/** Faults on the server's answers (the Effect 3 line's `Faults.FaultSettings`, as JSON). */
export type FaultSettings = { readonly [setting: string]: unknown }

/** What a test may ask for when it issues a token. */
export interface IssueTokenOptions {
  readonly user_id: number
  readonly kind?: "personal" | "application" | "accountKey"
  readonly validity?: unknown
  readonly product?: "this" | "other"
  readonly client_id?: string
}

/** The controls of a server, run at once on its state. */
export interface WebControls {
  readonly reset: () => void
  readonly load: (fixture: DemoData.Fixture) => void
  readonly setFaults: (faults: FaultSettings) => void
  readonly clearFaults: () => void
  readonly faults: () => FaultSettings
  readonly snapshot: () => DemoData.Fixture
  readonly revokeToken: (token: string) => void
  readonly issueToken: (options: IssueTokenOptions) => string
  readonly requestCount: () => number
  readonly recentRequests: () => ReadonlyArray<RequestLogEntry>
  readonly journal: (filter?: JournalFilter) => RequestJournal
  readonly clearJournal: () => void
  readonly limits: (user?: number) => ReadonlyArray<UserLimits>
}

/** A server with its handler and its controls. */
export declare const toWebServer: (
  options?: Options
) => { readonly handler: (request: Request) => Promise<Response>; readonly controls: WebControls }

/** The server's web-standard handler. */
export declare const toWebHandler: (options?: Options) => (request: Request) => Promise<Response>

/** The base URL of a client in process. */
export declare const inProcessBaseUrl: string

/** The control routes' token when none is given. */
export declare const demoControlToken: string
