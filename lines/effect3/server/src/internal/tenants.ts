/**
 * Tenants: worlds of their own in one sandbox, so that parallel test workers do not see each other.
 * A request names its tenant with the `X-Sandbox-Tenant` header, or, for a client that takes only a
 * base URL, with the path prefix `/_tenants/{name}` (`/_tenants/w1/external-api/v2/users/me`). The
 * first request that names a tenant creates it: an engine of its own over a fresh copy of the fixture
 * the sandbox serves, with its own counters, journal, faults and (on a manual clock) its own clock,
 * starting at the sandbox's time. Their number is bounded ({@link maxTenants}): one more is refused
 * with an error envelope that names the bound, and nothing is created. `DELETE
 * /_sandbox/tenants/{name}` drops one. Without a header or a prefix a request reaches the sandbox's own
 * world, as before tenants existed.
 *
 * @internal
 */
/** How many tenants a sandbox holds at once. */
export const maxTenants = 64

/** The header that names a tenant. */
export const header = "x-sandbox-tenant"

/** The path prefix that names a tenant: `/_tenants/{name}` before the usual path. */
export const prefix = "/_tenants/"

/** What a tenant's name may be: letters, digits, `-` and `_`, at most 64. */
const namePattern = /^[A-Za-z0-9_-]{1,64}$/

/** Whether `name` is a tenant's name. */
export const isName = (name: string): boolean => namePattern.test(name)

/** Why a name cannot be a tenant's. */
export const badName = (name: string): string =>
  `tenant ${JSON.stringify(name.slice(0, 70))}: a tenant's name is 1 to 64 letters, digits, - or _`

/** The refusal of one tenant more than {@link maxTenants}. */
export const full = (name: string): string =>
  `tenant ${JSON.stringify(name)}: this sandbox already holds ${maxTenants} tenants, the most it holds; ` +
  `drop one with DELETE /_sandbox/tenants/{name}`

/** The refusal of the tenants' routes inside a tenant's own world. */
export const notHere = "tenants: a tenant holds no tenants; ask the sandbox itself, without a tenant's header or prefix"

/** The refusal of dropping a tenant that does not exist. */
export const unknown = (name: string): string => `tenant ${JSON.stringify(name.slice(0, 70))}: no such tenant`

/**
 * The tenant a request names and the URL it asks for inside that tenant's world: from the path prefix
 * (which wins) or the header; `undefined` when it names none.
 */
export const route = (
  url: string,
  headerValue: string | undefined
): { readonly name: string; readonly url: string } | undefined => {
  if (url.startsWith(prefix)) {
    const rest = url.slice(prefix.length)
    const end = rest.search(/[/?]/)
    const name = end === -1 ? rest : rest.slice(0, end)
    const inner = end === -1 ? "/" : rest.slice(end)
    return { name: decodeURIComponent(name), url: inner.startsWith("/") ? inner : `/${inner}` }
  }
  return headerValue === undefined || headerValue === "" ? undefined : { name: headerValue, url }
}

/**
 * The tenants of one sandbox by name. Made by the caller (who knows how to build a world) and kept
 * here once made; a request that finds no room is refused before anything is made.
 */
export class Tenants<A> {
  private readonly worlds = new Map<string, A>()

  /** The world of `name`, if it exists. */
  find(name: string): A | undefined {
    return this.worlds.get(name)
  }

  /** Whether there is room for one more tenant. */
  hasRoom(): boolean {
    return this.worlds.size < maxTenants
  }

  /** Keeps `world` as tenant `name`'s, unless another request made it meanwhile: the one kept. */
  keep(name: string, world: A): A {
    const found = this.worlds.get(name)
    if (found !== undefined) return found
    this.worlds.set(name, world)
    return world
  }

  /** Drops tenant `name`; whether it existed. */
  drop(name: string): boolean {
    return this.worlds.delete(name)
  }

  /** The tenants' names, in the order they were made. */
  names(): Array<string> {
    return [...this.worlds.keys()]
  }
}
