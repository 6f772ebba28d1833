/**
 * The Effect 4 client against the reference server in process (`@community-api/effect4-server`), on
 * the test's clock, with fresh limiters: the Effect 3 line's `Reference.ts`, on this line.
 */
import { tokens } from "@community-api/core/DemoData"
import * as ReferenceServer from "@community-api/effect4-server/ReferenceServer"
import { Layer, Redacted } from "effect"
import * as CommunityApiClient from "../../src/CommunityApiClient.js"
import * as CreationQuota from "../../src/CreationQuota.js"
import * as Pacing from "../../src/Pacing.js"

export const config = (
  token: string = tokens.owner,
  options: Partial<CommunityApiClient.ClientConfig> = {}
): CommunityApiClient.ClientConfig => ({
  baseUrl: ReferenceServer.inProcessBaseUrl,
  token: Redacted.make(token),
  ...options
})

export const environment = (options: ReferenceServer.Options = {}) =>
  Layer.mergeAll(ReferenceServer.layerTest(options), Pacing.layer(), CreationQuota.layer())

export const layer = (token: string = tokens.owner, options: Partial<CommunityApiClient.ClientConfig> = {}) =>
  CommunityApiClient.layer(config(token, options)).pipe(Layer.provideMerge(environment()))

export const as = (token: string, options: Partial<CommunityApiClient.ClientConfig> = {}) =>
  CommunityApiClient.make(config(token, options))
