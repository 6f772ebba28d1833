/**
 * What the commands need from a client: one call, the pages of a list, and a call by path for the
 * operations whose parameters the API does not document. `Session` provides it over the real client.
 *
 * @since 0.1.0
 */
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
}

/**
 * @since 0.1.0
 */
export class Api extends Context.Tag("@community-api/cli/Api")<Api, Service>() {}
