/**
 * The span of a call, as both Effect lines make it: its name, its kind, its attributes (the operation
 * and its flags, the community it is about, the number of the attempt), and no stack trace (one per
 * call costs more than the rest of the span; the span's name says where it is). No attribute carries
 * the token or a parameter's text: only the operation, `group_id` and `channel`.
 *
 * @since 0.1.0
 */

/**
 * What a span knows of the operation it runs.
 *
 * @since 0.1.0
 * @category models
 */
export interface Operation {
  readonly path: string
  readonly section: string
  readonly method: string
  readonly creation: boolean
  readonly safeToRepeat: boolean
}

/**
 * The span attribute that numbers the attempts of a call, from 1.
 *
 * @since 0.1.0
 * @category constants
 */
export const attemptAttribute = "community_api.attempt"

/**
 * The span's kind: the client side of a request.
 *
 * @since 0.1.0
 * @category constants
 */
export const kind = "client"

/**
 * Whether a span captures a stack trace: never.
 *
 * @since 0.1.0
 * @category constants
 */
export const captureStackTrace = false

/**
 * The name of the span of a call of `operation`.
 *
 * @since 0.1.0
 * @category utils
 */
export const nameOf = (operation: Operation): string => `CommunityApiClient.${operation.section}.${operation.method}`

/**
 * The attributes a call's span starts with: the operation and its flags, the first attempt, and the
 * community of `params` when it names one.
 *
 * @since 0.1.0
 * @category utils
 */
export const attributesOf = (operation: Operation, params: unknown): Record<string, unknown> => {
  const attributes: Record<string, unknown> = {
    "community_api.operation": operation.path,
    "community_api.section": operation.section,
    "community_api.method": operation.method,
    "community_api.creation": operation.creation,
    "community_api.safe_to_repeat": operation.safeToRepeat,
    [attemptAttribute]: 1
  }
  if (typeof params === "object" && params !== null) {
    if ("group_id" in params) attributes["community_api.group_id"] = params.group_id
    if ("channel" in params) attributes["community_api.channel"] = params.channel
  }
  return attributes
}

/**
 * The options of a call's span: a client span, no stack trace (one per call costs more than the rest
 * of the span; the span's name says where it is), and the attributes it starts with
 * ({@link attributesOf}).
 *
 * @since 0.1.0
 * @category utils
 */
export const optionsOf = (operation: Operation, params: unknown): {
  readonly kind: typeof kind
  readonly captureStackTrace: typeof captureStackTrace
  readonly attributes: Record<string, unknown>
} => ({ kind, captureStackTrace, attributes: attributesOf(operation, params) })
