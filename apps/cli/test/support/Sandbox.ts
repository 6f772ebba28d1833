/**
 * The sandbox on a port for the command line to talk to, and the flags of the demo's main community.
 */
import * as DemoFixture from "@community-api/server/DemoFixture"
import type * as ReferenceServer from "@community-api/server/ReferenceServer"
import * as PortSupport from "../../../../lines/effect3/server/test/portSupport.js"

/** `--group-id` and `--channel` of the demo's main community. */
export const community = [
  "--group-id",
  String(DemoFixture.mainCommunity.group_id),
  "--channel",
  DemoFixture.mainCommunity.channel
]

/**
 * The reference server on a free port for the tests of the enclosing `describe` (the server's own
 * `sandboxOnPort`), with the environment of a client of it.
 */
export const sandboxOnPort = (options: Omit<ReferenceServer.ServeOptions, "port"> = {}) => {
  const sandbox = PortSupport.sandboxOnPort(options)
  return {
    ...sandbox,
    /** The environment of a client of the server with `token`. */
    env: (token: string) => ({ COMMUNITY_API_BASE_URL: sandbox.baseUrl(), COMMUNITY_API_TOKEN: token })
  }
}
