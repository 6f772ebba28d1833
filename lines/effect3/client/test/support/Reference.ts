/**
 * Clients of the reference server in-process, with fresh limiters per test.
 */
import { tokens } from "@community-api/server/DemoFixture"
import * as ReferenceServer from "@community-api/server/ReferenceServer"
import { Layer, Redacted } from "effect"
import * as CommunityApiClient from "../../src/CommunityApiClient.js"
import * as CreationQuota from "../../src/CreationQuota.js"
import * as Pacing from "../../src/Pacing.js"

/** The configuration of a client of the in-process server with one of the demo tokens. */
export const config = (
  token: string = tokens.owner,
  options: Partial<CommunityApiClient.ClientConfig> = {}
): CommunityApiClient.ClientConfig => ({
  baseUrl: ReferenceServer.inProcessBaseUrl,
  token: Redacted.make(token),
  ...options
})

/** The server, its in-process `HttpClient` and fresh limiters. */
export const environment = (options: ReferenceServer.Options = {}) =>
  Layer.mergeAll(ReferenceServer.layerTest(options), Pacing.layer(), CreationQuota.layer())

/** A client with `token` (the owner's by default) over a fresh server. */
export const layer = (token: string = tokens.owner, options: Partial<CommunityApiClient.ClientConfig> = {}) =>
  CommunityApiClient.layer(config(token, options)).pipe(Layer.provideMerge(environment()))

/** A client with another demo token, over the server of the context. */
export const as = (token: string, options: Partial<CommunityApiClient.ClientConfig> = {}) =>
  CommunityApiClient.make(config(token, options))
