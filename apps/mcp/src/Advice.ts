/**
 * What an assistant should do after each kind of failure: one English sentence per error type, in one
 * table for every tool. The type demands a sentence for every error of the API and of the client.
 *
 * @since 0.1.0
 */
import type { ClientError } from "@community-api/client/ClientError"
import { type ApiError, Limits } from "@community-api/schema"
import * as Credentials from "./Credentials.js"

/**
 * The tool's arguments do not fit the input schema; nothing was sent.
 *
 * @since 0.1.0
 */
export const invalidInputTag = "InvalidInput"

/**
 * A failure that is none of the typed ones (a bug).
 *
 * @since 0.1.0
 */
export const internalTag = "InternalError"

/**
 * Every error type a tool can answer with.
 *
 * @since 0.1.0
 */
export type Tag =
  | ApiError.ApiError["_tag"]
  | ApiError.UnexpectedApiError["_tag"]
  | ClientError["_tag"]
  | typeof invalidInputTag
  | typeof internalTag

/**
 * The advice for each error type.
 *
 * @since 0.1.0
 */
export const byTag: { readonly [T in Tag]: string } = {
  InvalidInput: "Fix the parameter named, as the tool's input schema describes it, and call the tool again.",
  RequestEncodeError: "Fix the parameter named, as the tool's input schema describes it, and call the tool again.",
  InvalidParameterError: "Check the parameters and that the object exists in this community (another community's " +
    "object is answered as missing); repeating the same call gives the same answer.",
  AccessDeniedError: "The token has no access to this community or section: use a community the token may reach, " +
    "or ask its owner for the role the tool's description names.",
  InvalidTokenError: `The token was refused (missing, expired, revoked or for another product): set a valid ` +
    `${Credentials.tokenVariable} and restart this server.`,
  RateLimitError: `The API's limit was hit (${Limits.requestsPerWindow} requests a second, or ` +
    `${Limits.creationsPerMinute} creations a minute): wait a minute before calling again.`,
  CreationQuotaExceeded: "The creation quota is used up: do not create anything more before the time in resetsAt.",
  ActionFailedError: "The API could not do it for the reason in its text: resolve that before trying again.",
  KeyServiceUnavailableError: "The API's key check is briefly unavailable and nothing was done: try again shortly.",
  InternalServerError: "The API failed internally: try again later, and after a change check first whether it " +
    "happened.",
  OutcomeUnknownError: "The action may or may not have happened: check (for example by listing) before repeating it.",
  TransportError: `The API could not be reached: check ${Credentials.baseUrlVariable} and the network, then try ` +
    "again.",
  LimiterUnavailable: "The store of the shared request limits (Redis) could not be reached, so nothing was sent: " +
    "check that the Redis server is up and reachable, then try again.",
  TimeoutError: "The API did not answer in time and nothing is known to have changed: try again later.",
  ResponseDecodeError: "The API answered something this server cannot read: repeating will not help; report it.",
  UnexpectedApiError: "The API answered with an error this operation does not document: read its text; repeating " +
    "will probably not help.",
  UnknownSectionError: `The API does not know this operation at this address: check that ` +
    `${Credentials.baseUrlVariable} ends with /v2.`,
  UnknownMethodError: `The API does not know this operation at this address: check that ` +
    `${Credentials.baseUrlVariable} ends with /v2.`,
  InternalError: "This server failed unexpectedly: try again, and report it if it repeats."
}

/**
 * The advice for an error type; a type of no table gets that of {@link internalTag}.
 *
 * @since 0.1.0
 */
export const of = (tag: string): string => Object.hasOwn(byTag, tag) ? byTag[tag as Tag] : byTag[internalTag]
