/**
 * The request journal: the ring of the last requests the engine answered, which the printed request
 * lines, `recentRequests` and `GET /_sandbox/requests` all read; the parameters each entry keeps, with
 * every secret masked and their size bounded; and the filters of the route.
 *
 * A token never reaches an entry. The header is not kept at all; in the parameters, the value of any
 * name that reads like a credential (`api_key`, `token`, `secret`, `password`…) is masked whole, and in
 * every other name and value the request's own credential, any token of the server's state and any
 * text shaped like a token (the API's prefixes, or a long unbroken run of letters and digits like an
 * account key) are masked where they appear, before anything is cut short.
 *
 * @internal
 */
import * as Fixture from "../Fixture.js"
import type { JournalFilter, RequestLogEntry } from "../ReferenceServer.js"

/** How many entries the ring keeps; an older one is dropped, and counted (see {@link Ring.dropped}). */
export const size = 1000

/** What stands for a masked secret. */
export const masked = "***"

/** The ring of the last {@link size} entries: no copying per request once it is full. */
export class Ring {
  private readonly entries: Array<RequestLogEntry> = []
  /** Where the next entry goes once the ring is full. */
  private next = 0
  private droppedCount = 0

  add(entry: RequestLogEntry): void {
    if (this.entries.length < size) {
      this.entries.push(entry)
      return
    }
    this.entries[this.next] = entry
    this.next = (this.next + 1) % size
    this.droppedCount++
  }

  /** The entries kept, oldest first. */
  all(): ReadonlyArray<RequestLogEntry> {
    return this.next === 0 ? [...this.entries] : [...this.entries.slice(this.next), ...this.entries.slice(0, this.next)]
  }

  /** How many entries were dropped to make room since the ring was last cleared. */
  get dropped(): number {
    return this.droppedCount
  }

  clear(): void {
    this.entries.length = 0
    this.next = 0
    this.droppedCount = 0
  }
}

/** What one request's secrets are, for {@link maskParams}. */
export interface Secrets {
  /** The credential the request carried (header or `api_key`), masked wherever it appears. */
  readonly credential: string | undefined
  /** Tells whether a whole text is a token of the server's state (an account key may have any shape). */
  readonly isToken: (text: string) => boolean
}

/** A parameter name whose value is a credential, whatever it holds. */
const secretName = /key|token|secret|passw|auth/i

/**
 * Text shaped like a token: one of the API's prefixes and what follows it, or a run of 24 letters and
 * digits or more (the older account key has no prefix).
 */
const tokenShape = new RegExp(
  `(?:${[...Fixture.tokenPrefixes.personal, ...Fixture.tokenPrefixes.application].join("|")})[^\\s"'&=,;:/?#]*` +
    "|[A-Za-z0-9]{24,}",
  "gi"
)

/** `text` with anything shaped like a token masked (a refusal's quote of what was sent, say). */
export const scrub = (text: string): string => text.replace(tokenShape, masked)

/** The shortest credential masked as a substring: a shorter one (a stray header) would mask at random. */
const minCredential = 8

/** Bounds of what an entry keeps of the parameters: a body of a megabyte leaves a few kilobytes. */
const bounds = { depth: 3, keys: 50, items: 20, chars: 200 } as const

const maskText = (text: string, secrets: Secrets): string => {
  if (secrets.isToken(text)) return masked
  let out = scrub(text)
  const { credential } = secrets
  if (credential !== undefined && credential.length >= minCredential) out = out.split(credential).join(masked)
  return out
}

/** Masks first, then cuts: a token across the cut is already masked. */
const keptText = (text: string, secrets: Secrets): string => {
  const out = maskText(text, secrets)
  return out.length > bounds.chars ? `${out.slice(0, bounds.chars)}…` : out
}

const keptValue = (value: unknown, secrets: Secrets, depth: number): unknown => {
  if (typeof value === "string") return keptText(value, secrets)
  if (value === null || typeof value !== "object") return value
  if (depth >= bounds.depth) return Array.isArray(value) ? "[…]" : "{…}"
  if (Array.isArray(value)) {
    const items = value.slice(0, bounds.items).map((item) => keptValue(item, secrets, depth + 1))
    return value.length > bounds.items ? [...items, `… ${value.length - bounds.items} more`] : items
  }
  return keptObject(value as Record<string, unknown>, secrets, depth)
}

const keptObject = (params: Record<string, unknown>, secrets: Secrets, depth: number): Record<string, unknown> => {
  const out: Record<string, unknown> = {}
  // Every name as an own property: `__proto__` is a parameter like any other (see formats.ts).
  const put = (name: string, value: unknown) => {
    let key = name
    for (let n = 2; Object.hasOwn(out, key); n++) key = `${name}~${n}`
    Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true })
  }
  const names = Object.keys(params)
  for (const name of names.slice(0, bounds.keys)) {
    const value = params[name]
    put(
      keptText(name, secrets),
      secretName.test(name) && value !== undefined ? masked : keptValue(value, secrets, depth + 1)
    )
  }
  if (names.length > bounds.keys) put("…", `${names.length - bounds.keys} more`)
  return out
}

/** The parameters of a request as its entry keeps them: secrets masked, size bounded. */
export const maskParams = (params: Record<string, unknown>, secrets: Secrets): Record<string, unknown> =>
  keptObject(params, secrets, 0)

/** Whether `entry` passes `filter`. */
export const matches = (filter: JournalFilter) => (entry: RequestLogEntry): boolean =>
  (filter.operation === undefined || entry.operation === filter.operation) &&
  (filter.user === undefined || entry.user === filter.user) &&
  (filter.outcome === undefined || entry.outcome === filter.outcome) &&
  (filter.since === undefined || entry.at >= filter.since)
