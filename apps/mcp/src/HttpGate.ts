/**
 * Who may talk to the MCP server over HTTP, checked before the protocol sees a request: the bearer
 * secret the server was started with (compared in constant time, never logged), and the `Origin` and
 * `Host` headers, against DNS rebinding (a web page that makes a browser send requests to a name that
 * resolves to this machine). The API token is the server's own, from its environment: a client never
 * passes one through (MCP's authorization rules forbid handing a client's token to an upstream API).
 *
 * @since 0.1.0
 */
import { createHash, timingSafeEqual } from "node:crypto"
import { readFileSync } from "node:fs"

/**
 * The environment variable holding the secret clients must send as `Authorization: Bearer …`.
 *
 * @since 0.1.0
 * @category constants
 */
export const secretVariable = "COMMUNITY_API_MCP_SECRET"

/**
 * The environment variable naming a file that holds the secret (its trailing newline ignored).
 *
 * @since 0.1.0
 * @category constants
 */
export const secretFileVariable = "COMMUNITY_API_MCP_SECRET_FILE"

/**
 * The environment variable listing, separated by commas, the origins a browser page may call the
 * server from besides the server's own address (`https://app.example`, exactly as browsers send it).
 *
 * @since 0.1.0
 * @category constants
 */
export const allowedOriginsVariable = "COMMUNITY_API_MCP_ALLOWED_ORIGINS"

/**
 * The secret of the environment: none, a value, or a line that says why it cannot be used.
 *
 * @since 0.1.0
 * @category models
 */
export type Secret =
  | { readonly _tag: "None" }
  | { readonly _tag: "Secret"; readonly value: string }
  | { readonly _tag: "Invalid"; readonly message: string }

/** What a secret may hold: it travels as `Authorization: Bearer <secret>`, one header value. */
const printable = /^[\x21-\x7e]+$/

/**
 * The secret of {@link secretVariable}, or the content of the file {@link secretFileVariable} names
 * (its trailing newlines ignored, so `echo … > file` works). An empty variable counts as unset. Both
 * variables at once, a file that cannot be read or holds nothing, or a secret with spaces or
 * characters beyond printable ASCII is `Invalid`, with a line that never shows the secret.
 *
 * @since 0.1.0
 * @category constructors
 */
export const secretOf = (
  env: Readonly<Record<string, string | undefined>>,
  readFile: (path: string) => string = (path) => readFileSync(path, "utf8")
): Secret => {
  const value = env[secretVariable] ?? ""
  const file = env[secretFileVariable] ?? ""
  if (value !== "" && file !== "") {
    return { _tag: "Invalid", message: `set ${secretVariable} or ${secretFileVariable}, not both` }
  }
  let secret = value
  let source = secretVariable
  if (file !== "") {
    source = `the file of ${secretFileVariable} (${file})`
    try {
      secret = readFile(file).replace(/[\r\n]+$/, "")
    } catch (error) {
      const cause = (error as { readonly code?: unknown }).code
      return {
        _tag: "Invalid",
        message: `cannot read the secret from ${source}: ${typeof cause === "string" ? cause : "unreadable"}`
      }
    }
    if (secret === "") return { _tag: "Invalid", message: `${source} holds no secret` }
  }
  if (secret === "") return { _tag: "None" }
  if (!printable.test(secret)) {
    return {
      _tag: "Invalid",
      message: `the secret of ${source} must be printable ASCII without spaces: it is sent in an HTTP header`
    }
  }
  return { _tag: "Secret", value: secret }
}

/**
 * The origins of {@link allowedOriginsVariable}.
 *
 * @since 0.1.0
 * @category constructors
 */
export const allowedOriginsOf = (env: Readonly<Record<string, string | undefined>>): ReadonlyArray<string> =>
  (env[allowedOriginsVariable] ?? "").split(",").map((origin) => origin.trim()).filter((origin) => origin !== "")

/**
 * Whether a host name or address is this machine's loopback: `localhost`, `127.0.0.0/8` or `::1`.
 *
 * @since 0.1.0
 * @category guards
 */
export const isLoopback = (host: string): boolean => {
  const bare = host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host
  return bare === "localhost" || bare === "::1" || /^127(?:\.\d{1,3}){3}$/.test(bare)
}

const digest = (text: string) => createHash("sha256").update(text, "utf8").digest()

/**
 * Whether an `Authorization` header carries the secret. Both sides are hashed first, so the
 * comparison takes the same time whatever the length or the first wrong character of what was sent.
 *
 * @since 0.1.0
 * @category utils
 */
export const authorized = (header: string | undefined, secret: string): boolean => {
  const match = header === undefined ? null : /^Bearer[ \t]+(\S+)\s*$/i.exec(header)
  const given = match === null ? "" : match[1]!
  return timingSafeEqual(digest(given), digest(secret)) && given !== ""
}

/**
 * Where the server listens, as the checks need it.
 *
 * @since 0.1.0
 * @category models
 */
export interface Listening {
  readonly host: string
  readonly port: number
  /** Origins allowed besides this server's own address, exactly as a browser sends them. */
  readonly allowedOrigins: ReadonlyArray<string>
}

/**
 * A host as it is written in a URL or a `Host` header: an IPv6 address in brackets.
 *
 * @since 0.1.0
 * @category utils
 */
export const urlHost = (host: string): string => host.includes(":") && !host.startsWith("[") ? `[${host}]` : host

/** The names a browser may use for this server: its own host, and every loopback name when it is one. */
const namesOf = (listening: Listening): ReadonlyArray<string> => {
  const own = urlHost(listening.host)
  return isLoopback(listening.host) ? [...new Set(["127.0.0.1", "localhost", "[::1]", own])] : [own]
}

/**
 * The `Host` headers that name this server (a name with the port), as {@link hostAllowed} takes them
 * on loopback.
 *
 * @since 0.1.0
 * @category utils
 */
export const hostsOf = (listening: Listening): ReadonlyArray<string> =>
  namesOf(listening).map((name) => `${name}:${listening.port}`)

/**
 * The `Origin` headers {@link originAllowed} takes: this server's own addresses and the allowed origins.
 *
 * @since 0.1.0
 * @category utils
 */
export const originsOf = (listening: Listening): ReadonlyArray<string> => [
  ...hostsOf(listening).map((host) => `http://${host}`),
  ...listening.allowedOrigins
]

/**
 * Whether an `Origin` header may reach the server: none at all (clients that are not browsers send
 * none), this server's own address, or one of the allowed origins.
 *
 * @since 0.1.0
 * @category utils
 */
export const originAllowed = (origin: string | undefined, listening: Listening): boolean =>
  origin === undefined || originsOf(listening).includes(origin)

/**
 * Whether a `Host` header names this server. On loopback it must be a loopback name with the port, so
 * that a foreign name resolved to 127.0.0.1 (DNS rebinding) is refused; beyond loopback any host is
 * taken, the secret being required there.
 *
 * @since 0.1.0
 * @category utils
 */
export const hostAllowed = (host: string | undefined, listening: Listening): boolean =>
  !isLoopback(listening.host) || (host !== undefined && hostsOf(listening).includes(host))
