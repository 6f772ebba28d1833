/**
 * What the commands need from a client: one call, the pages of a list, a call by path for the
 * operations whose parameters the API does not document, and what is left of the user's limits.
 * `Session` provides it over the real client.
 *
 * @since 0.1.0
 */
import type * as Budget from "@community-api/client/Budget"
import type * as ClientError from "@community-api/client/ClientError"
import type * as Target from "@community-api/client/Target"
import type { Operation } from "@community-api/schema"
import type { Effect, Stream } from "effect"
import { Context } from "effect"

/**
 * A page of a list, decoded.
 *
 * @since 0.1.0
 */
export interface Page {
  readonly items: ReadonlyArray<unknown>
  readonly total: number
}

/**
 * @since 0.1.0
 */
export interface Service {
  /** Calls an operation with decoded parameters; succeeds with the decoded success. */
  readonly execute: (op: Operation.Any, params: Record<string, unknown>) => Effect.Effect<unknown, unknown>
  /** Every page of a list operation from `offset`, in order. */
  readonly pages: (op: Operation.Pageable, params: Record<string, unknown>) => Stream.Stream<Page, unknown>
  /** Calls an operation whose parameters are not documented, with its parameters as given. */
  readonly call: (op: Operation.Any, params: Record<string, unknown>) => Effect.Effect<unknown, unknown>
  /** What is left of the user's limits now, as the client's limiters see them. */
  readonly budget: Effect.Effect<Budget.OfUser, ClientError.LimiterUnavailable>
  /** Where those limiters keep the limits. */
  readonly limiters: Target.Limiters
}

/**
 * @since 0.1.0
 */
export class Api extends Context.Tag("@community-api/cli/Api")<Api, Service>() {}
