/**
 * The cause of a failed connection as both Effect lines' clients tell it: read from the error chain
 * the platform hands over (fetch's `TypeError: fetch failed` and its `cause`, undici's or node:http's
 * error, an `AggregateError` of several attempts), into the system's code (`ECONNREFUSED`,
 * `ENOTFOUND`, a TLS failure's `DEPTH_ZERO_SELF_SIGNED_CERT`, ...), the host and port it failed with,
 * and a plain phrase: `connection refused by 127.0.0.1:8080 (ECONNREFUSED)`. Never the URL's path or
 * query, never a header: only the host and the port.
 *
 * @since 0.1.0
 */

/**
 * A failed connection, read: what a `TransportError` carries.
 *
 * @since 0.1.0
 * @category models
 */
export interface Cause {
  /** The plain phrase, with the code in parentheses when there is one. */
  readonly reason: string
  /** The system's code (`ECONNREFUSED`) or the TLS failure's (`CERT_HAS_EXPIRED`), when the chain has one. */
  readonly code: string | undefined
  /** The host it failed with: the address connected to, the name looked up, or the URL's host. */
  readonly host: string | undefined
  /** The port it failed with: the socket's, or the URL's (its scheme's default when it names none). */
  readonly port: number | undefined
}

/** How many errors of a chain are read at most: a chain is short, a cycle is not. */
const maxLinks = 16

const fieldOf = (value: unknown, key: string): unknown =>
  typeof value === "object" && value !== null ? (value as Record<string, unknown>)[key] : undefined

const stringOf = (value: unknown): string | undefined =>
  typeof value === "string" && value.length > 0 ? value : undefined

const portOf = (value: unknown): number | undefined => {
  const port = typeof value === "string" ? Number(value) : value
  return typeof port === "number" && Number.isInteger(port) && port > 0 && port < 65_536 ? port : undefined
}

/**
 * The errors of a chain, outermost first: each error, its `cause`, and the `errors` of an
 * `AggregateError`, each once, at most 16.
 *
 * @since 0.1.0
 * @category utils
 */
export const chainOf = (error: unknown): ReadonlyArray<object> => {
  const links: Array<object> = []
  const queue: Array<unknown> = [error]
  while (queue.length > 0 && links.length < maxLinks) {
    const next = queue.shift()
    if (typeof next !== "object" || next === null || links.includes(next)) continue
    links.push(next)
    queue.push(fieldOf(next, "cause"))
    const errors = fieldOf(next, "errors")
    if (Array.isArray(errors)) queue.push(...errors)
  }
  return links
}

const first = <A>(links: ReadonlyArray<object>, read: (link: object) => A | undefined): A | undefined => {
  for (const link of links) {
    const found = read(link)
    if (found !== undefined) return found
  }
  return undefined
}

/**
 * The host and port of `url`, its scheme's default port when it names none; nothing else of it.
 *
 * @since 0.1.0
 * @category utils
 */
export const endpointOf = (url: string | undefined): { readonly host?: string; readonly port?: number } => {
  if (url === undefined || !URL.canParse(url)) return {}
  const parsed = new URL(url)
  const port = parsed.port !== "" ? Number(parsed.port) : parsed.protocol === "https:" ? 443 : 80
  return { host: parsed.hostname.replace(/^\[(.*)\]$/, "$1"), port }
}

/**
 * `host:port`, an IPv6 address in brackets.
 *
 * @since 0.1.0
 * @category utils
 */
export const whereOf = (host: string | undefined, port: number | undefined): string => {
  const name = host === undefined ? "the server" : host.includes(":") ? `[${host}]` : host
  return port === undefined || host === undefined ? name : `${name}:${port}`
}

/** The phrase of each code a person meets, given where and the host looked up. */
const phrases: Readonly<Record<string, (where: string, host: string) => string>> = {
  ECONNREFUSED: (where) => `connection refused by ${where}`,
  ENOTFOUND: (_, host) => `host ${host} not found`,
  EAI_AGAIN: (_, host) => `host ${host} could not be resolved now (the name service did not answer)`,
  ETIMEDOUT: (where) => `connection to ${where} timed out`,
  UND_ERR_CONNECT_TIMEOUT: (where) => `connection to ${where} timed out`,
  ECONNRESET: (where) => `connection to ${where} was reset`,
  EPIPE: (where) => `connection to ${where} was closed while sending`,
  UND_ERR_SOCKET: (where) => `connection to ${where} was closed`,
  EHOSTUNREACH: (where) => `${where} is unreachable`,
  ENETUNREACH: (where) => `${where} is unreachable (no route to its network)`,
  CERT_HAS_EXPIRED: (where) => `the TLS certificate of ${where} has expired`,
  CERT_NOT_YET_VALID: (where) => `the TLS certificate of ${where} is not valid yet`,
  DEPTH_ZERO_SELF_SIGNED_CERT: (where) => `the TLS certificate of ${where} is self-signed`,
  SELF_SIGNED_CERT_IN_CHAIN: (where) => `the TLS certificate of ${where} has a self-signed certificate in its chain`,
  ERR_TLS_CERT_ALTNAME_INVALID: (where, host) => `the TLS certificate of ${where} is not for ${host}`,
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: (where) => `the TLS certificate of ${where} could not be verified`,
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: (where) => `the TLS certificate of ${where} has an unknown issuer`
}

const isTls = (code: string): boolean => /CERT|TLS|SSL/.test(code)

/** fetch refuses a port browsers block (`bad port`) before it connects: no code, no socket. */
const isBadPort = (link: object): boolean => fieldOf(link, "message") === "bad port"

/** The innermost message of the chain: the most precise words it has. */
const innermostMessage = (links: ReadonlyArray<object>): string | undefined =>
  links.map((link) => stringOf(fieldOf(link, "message"))).filter((message) => message !== undefined).at(-1)

/**
 * The cause of a failed connection read from `error` (the platform's error or its `cause`), `url` the
 * request's (only its host and port are read, as where the chain names none).
 *
 * @since 0.1.0
 * @category constructors
 */
export const read = (error: unknown, url?: string): Cause => {
  const links = chainOf(error)
  const code = first(links, (link) => stringOf(fieldOf(link, "code")))
  const endpoint = endpointOf(url)
  const host = first(links, (link) => stringOf(fieldOf(link, "address")) ?? stringOf(fieldOf(link, "hostname"))) ??
    endpoint.host
  const port = first(links, (link) => portOf(fieldOf(link, "port"))) ?? endpoint.port
  const where = whereOf(host, port)
  const phrase = code === undefined
    ? links.some(isBadPort)
      ? `fetch refuses to connect to port ${port ?? "?"} of ${host ?? "the server"} (a port browsers block)`
      : `connection to ${where} failed: ${innermostMessage(links) ?? "no cause given"}`
    : phrases[code]?.(where, host ?? "the server") ??
      (isTls(code) ? `TLS with ${where} failed` : `connection to ${where} failed`)
  return { reason: code === undefined ? phrase : `${phrase} (${code})`, code, host, port }
}
