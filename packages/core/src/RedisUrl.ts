/**
 * How the Redis store of the shared limiters is reached and named to users, in either Effect line:
 * the URL of one server or of a cluster's nodes, the store named without credentials, and reasons
 * without the password.
 *
 * A cluster is given by its nodes in one URL (any of them is enough to find the others; more are
 * tried in turn when the first does not answer):
 *
 *   redis+cluster://[[user]:password@]host:port[,host:port]…     (rediss+cluster:// for TLS)
 *
 * @since 0.1.0
 */

/**
 * One node of a cluster as its URL names it.
 *
 * @since 0.1.0
 * @category models
 */
export interface Node {
  readonly host: string
  readonly port: number
}

/**
 * Where the store is: one Redis server (its URL, read by the driver), a cluster (its nodes and the
 * credentials every node takes), or a cluster URL that cannot be read (and why, without credentials).
 *
 * @since 0.1.0
 * @category models
 */
export type Target =
  | { readonly _tag: "Server"; readonly url: string }
  | {
    readonly _tag: "Cluster"
    readonly nodes: ReadonlyArray<Node>
    readonly username: string | undefined
    readonly password: string | undefined
    readonly tls: boolean
  }
  | { readonly _tag: "Unreadable"; readonly reason: string }

const clusterSchemes: Readonly<Record<string, boolean>> = { "redis+cluster:": false, "rediss+cluster:": true }

/** The port of a node when its URL names none, as for one server. */
const defaultPort = 6379

/** The scheme of `url` (lower case, with its colon), or undefined. */
const schemeOf = (url: string): string | undefined => /^([a-z][a-z0-9+.-]*:)\/\//i.exec(url)?.[1]?.toLowerCase()

/** `host[:port]` or `[ipv6][:port]`, or undefined when it is not one. */
const parseNode = (text: string): Node | undefined => {
  const match = /^(?:\[([0-9a-f:.]+)\]|([^:[\]/?#@\s]+))(?::(\d{1,5}))?$/i.exec(text)
  if (match === null) return undefined
  const port = match[3] === undefined ? defaultPort : Number(match[3])
  if (port < 1 || port > 65_535) return undefined
  return { host: match[1] ?? match[2] ?? "", port }
}

const decode = (text: string | undefined): string | undefined => {
  if (text === undefined || text === "") return undefined
  try {
    return decodeURIComponent(text)
  } catch {
    return text
  }
}

/** The parts of a cluster URL: credentials (still encoded) and the node list. */
const splitCluster = (url: string, scheme: string) => {
  const rest = url.slice(scheme.length + 2)
  const at = rest.lastIndexOf("@")
  const userInfo = at < 0 ? undefined : rest.slice(0, at)
  const hosts = at < 0 ? rest : rest.slice(at + 1)
  const colon = userInfo?.indexOf(":") ?? -1
  return {
    username: userInfo === undefined ? undefined : colon < 0 ? userInfo : userInfo.slice(0, colon),
    password: userInfo === undefined || colon < 0 ? undefined : userInfo.slice(colon + 1),
    hosts: hosts.replace(/\/$/, "")
  }
}

/**
 * Reads where the store is from its URL: `redis://` or `rediss://` is one server (the driver reads
 * it), `redis+cluster://` or `rediss+cluster://` the nodes of a cluster (see the module's text).
 *
 * @since 0.1.0
 * @category decoding
 */
export const parse = (url: string): Target => {
  const scheme = schemeOf(url)
  const tls = scheme === undefined ? undefined : clusterSchemes[scheme]
  if (scheme === undefined || tls === undefined) return { _tag: "Server", url }
  const { hosts, password, username } = splitCluster(url, scheme)
  if (hosts.includes("/") || hosts.includes("?")) {
    return { _tag: "Unreadable", reason: "a cluster URL names nodes only: a cluster has no database or options in it" }
  }
  const nodes: Array<Node> = []
  for (const [index, text] of hosts.split(",").entries()) {
    const node = parseNode(text.trim())
    // Named by its place, not its text: a malformed URL may hold a password where a node should be.
    if (node === undefined) {
      return { _tag: "Unreadable", reason: `node ${index + 1} of the cluster URL is not host:port` }
    }
    nodes.push(node)
  }
  return { _tag: "Cluster", nodes, username: decode(username), password: decode(password), tls }
}

const nodeText = (node: Node): string => `${node.host.includes(":") ? `[${node.host}]` : node.host}:${node.port}`

/**
 * The store as a log or an error names it: the URL without user, password or query; a cluster by
 * its nodes.
 *
 * @example
 * ```ts
 * import * as RedisUrl from "@community-api/core/RedisUrl"
 * import { ok } from "node:assert"
 *
 * // A Redis URL as logs and errors name it: no password.
 * const named = RedisUrl.describeUrl("redis://app:s3cret@redis.internal:6380/2")
 * ok(named.includes("redis.internal:6380"))
 * ok(!named.includes("s3cret"))
 * ```
 *
 * @since 0.1.0
 * @category utils
 */
export const describeUrl = (url: string): string => {
  const target = parse(url)
  switch (target._tag) {
    case "Cluster":
      return `${target.tls ? "rediss" : "redis"}+cluster://${target.nodes.map(nodeText).join(",")}`
    case "Unreadable":
      return "redis cluster (an unreadable URL)"
    case "Server":
      try {
        const parsed = new URL(url)
        return `${parsed.protocol}//${parsed.host}${parsed.pathname === "/" ? "" : parsed.pathname}`
      } catch {
        return "redis (an unreadable URL)"
      }
  }
}

/** The password of `url`, decoded, or "" when it has none or cannot be read. */
const passwordOf = (url: string): string => {
  const scheme = schemeOf(url)
  if (scheme !== undefined && clusterSchemes[scheme] !== undefined) {
    const { password } = splitCluster(url, scheme)
    return decode(password) ?? ""
  }
  try {
    return decodeURIComponent(new URL(url).password)
  } catch {
    // An unreadable URL has no password to find.
    return ""
  }
}

/**
 * A function that blanks the password of `url` wherever a text holds it (a reason from the driver).
 *
 * @since 0.1.0
 * @category utils
 */
export const scrubber = (url: string): (text: string) => string => {
  const password = passwordOf(url)
  const encoded = encodeURIComponent(password)
  return (text) => password === "" ? text : text.split(password).join("***").split(encoded).join("***")
}
