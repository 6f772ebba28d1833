/**
 * The bound on a variable's value (`Variable.maxValueLength`, an assumption of the contract: the spec
 * gives none), checked before anything is looked up, like any wrong parameter.
 *
 * @internal
 */
import type { ApiError } from "@community-api/schema"
import { Variable } from "@community-api/schema"
import { Effect } from "effect"
import type { RequestContext } from "../context.js"
import * as Texts from "../texts.js"

/** Refuses a value longer than the bound with 7 naming `value`; an omitted value passes. */
export const boundedValue = (
  ctx: RequestContext,
  value: string | undefined
): Effect.Effect<void, ApiError.ErrorOf<7>> =>
  value !== undefined && value.length > Variable.maxValueLength
    ? ctx.fail(7, Texts.tooLong("value", Variable.maxValueLength))
    : Effect.void
