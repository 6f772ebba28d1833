/**
 * The tools' client in process: the Effect client with the server's own client options, over the
 * reference server with the demo data on the `TestClock`, as the demo owner unless told otherwise.
 */
import * as CommunityApiClient from "@community-api/client/CommunityApiClient"
import * as CreationQuota from "@community-api/client/CreationQuota"
import * as Pacing from "@community-api/client/Pacing"
import * as DemoFixture from "@community-api/server/DemoFixture"
import * as ReferenceServer from "@community-api/server/ReferenceServer"
import { Layer, Redacted } from "effect"
import * as Session from "../../src/Session.js"

export const clientLayer = (options: Partial<CommunityApiClient.ClientConfig> = {}) =>
  CommunityApiClient.layer({
    baseUrl: ReferenceServer.inProcessBaseUrl,
    token: Redacted.make(DemoFixture.tokens.owner),
    ...Session.clientOptions,
    ...options
  }).pipe(Layer.provideMerge(Layer.mergeAll(ReferenceServer.layerTest(), Pacing.layer(), CreationQuota.layer())))
