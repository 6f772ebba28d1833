/**
 * Exit codes of the command line: one table from error tag to a kind of failure, and one from kind to
 * code. The `--help` footer and the docs are derived from these tables.
 *
 * @since 0.1.0
 */
import type { ClientError } from "@community-api/client/ClientError"
import type { ApiError } from "@community-api/schema"

/**
 * The kinds of outcome a script can tell apart by the exit code.
 *
 * @since 0.1.0
 */
export const kinds = {
  success: { code: 0, meaning: "success" },
  internal: { code: 1, meaning: "internal error: 101, an unexpected answer, an unknown outcome, a bug" },
  usage: { code: 2, meaning: "usage error: unknown command or flag, a value the contract rejects, no token" },
  access: { code: 3, meaning: "authentication or access error: token refused (4), no access (8)" },
  limit: { code: 4, meaning: "limit error: request rate or creation quota used up (5)" },
  parameter: { code: 5, meaning: "not found or parameter error (7), or the action could not be done (6)" },
  transient: { code: 6, meaning: "transient failure: key service down (9), network error, timeout; try again" },
  differs: { code: 7, meaning: "verify: the service's answers differ from the contract (the report names each)" },
  // 128 + 2, the code a shell gives a program that SIGINT ended: what scripts already test for.
  interrupted: {
    code: 130,
    meaning: "interrupted by Ctrl-C (SIGINT) or SIGTERM; the output so far is whole (JSON lines too); " +
      "serve and mcp stop with 0"
  }
} as const

/**
 * A kind of outcome.
 *
 * @since 0.1.0
 */
export type Kind = keyof typeof kinds

/**
 * Tags of the failures the command line itself raises.
 *
 * @since 0.1.0
 */
export type CliTag = "UsageError" | "ValidationError" | "ContractDiffers"

/**
 * Every error tag the command line can end with.
 *
 * @since 0.1.0
 */
export type Tag = ApiError.ApiError["_tag"] | ApiError.UnexpectedApiError["_tag"] | ClientError["_tag"] | CliTag

/**
 * The kind of each error tag. The type demands every tag of the API and the client.
 *
 * @since 0.1.0
 */
export const kindByTag: { readonly [T in Tag]: Exclude<Kind, "success"> } = {
  ValidationError: "usage",
  UsageError: "usage",
  ContractDiffers: "differs",
  RequestEncodeError: "usage",
  UnknownSectionError: "usage",
  UnknownMethodError: "usage",
  InvalidTokenError: "access",
  AccessDeniedError: "access",
  RateLimitError: "limit",
  CreationQuotaExceeded: "limit",
  InvalidParameterError: "parameter",
  ActionFailedError: "parameter",
  KeyServiceUnavailableError: "transient",
  TransportError: "transient",
  TimeoutError: "transient",
  LimiterUnavailable: "transient",
  InternalServerError: "internal",
  UnexpectedApiError: "internal",
  ResponseDecodeError: "internal",
  OutcomeUnknownError: "internal"
}

/**
 * The exit code of an error, by its `_tag`; an untagged or unknown failure is internal.
 *
 * @since 0.1.0
 */
export const ofError = (error: unknown): number => {
  const tag = typeof error === "object" && error !== null && "_tag" in error ? String(error._tag) : ""
  const kind: Kind = Object.hasOwn(kindByTag, tag) ? kindByTag[tag as Tag] : "internal"
  return kinds[kind].code
}

/**
 * The exit-code table as lines of text, for `--help` and the README: code, meaning, error tags.
 *
 * @since 0.1.0
 */
export const describe = (): ReadonlyArray<string> =>
  (Object.keys(kinds) as Array<Kind>).map((kind) => {
    const tags = (Object.keys(kindByTag) as Array<Tag>).filter((tag) => kindByTag[tag] === kind)
    return `${kinds[kind].code}  ${kinds[kind].meaning}${tags.length === 0 ? "" : ` [${tags.join(", ")}]`}`
  })

/**
 * The exit-code table in Markdown, for the README (a test keeps the README's table equal to it).
 *
 * @since 0.1.0
 */
export const markdown = (): string =>
  [
    "| Code | Meaning | Error types |",
    "|---|---|---|",
    ...(Object.keys(kinds) as Array<Kind>).map((kind) => {
      const tags = (Object.keys(kindByTag) as Array<Tag>).filter((tag) => kindByTag[tag] === kind)
      return `| ${kinds[kind].code} | ${kinds[kind].meaning} | ${tags.map((tag) => `\`${tag}\``).join(", ")} |`
    })
  ].join("\n")
