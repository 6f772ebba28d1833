/**
 * The reference server's engine, bundled from `@community-api/server` with the Effect 3 runtime it
 * runs on (`scripts/engine.mjs`): only what this package reaches, in types of no Effect line.
 */
import type * as CoreClock from "@community-api/core/Clock"
import type * as DemoData from "@community-api/core/DemoData"

/** One request the server answered, for a log line. */
export interface RequestLogEntry {
  readonly path: string
  readonly outcome: number | "ok" | "dropped"
  readonly millis: number
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
