/**
 * The fixture format: everything the reference server holds, as one JSON document. A fixture seeds the
 * server (`ReferenceServer.layer({ fixture })`, `load`, `--fixture FILE`) and `snapshot` returns the
 * current state in the same shape. Optional fields get the defaults written beside them.
 *
 * @since 0.1.0
 */
import { Channel as ChannelValues, Community, Ids, Mailing } from "@community-api/schema"
import { Effect, Schema } from "effect"
import * as fs from "node:fs/promises"
import * as Issues from "./internal/issues.js"
import { plainCause } from "./internal/systemErrors.js"

const Int = Schema.Int
const Seconds = Schema.Int.annotations({ description: "unix time in seconds" })
const ObjectId = Ids.ObjectId
const Channel = Schema.Literal(...ChannelValues.values).annotations({
  description: "upper-case channel",
  message: () => ({ message: `expected one of ${ChannelValues.values.join(", ")} (upper case)`, override: true })
})
const Flag = Schema.Literal(0, 1)
const withDefault = <A, I>(schema: Schema.Schema<A, I>, value: () => NoInfer<A>) =>
  Schema.optionalWith(schema, { default: value, exact: true })
const list = <A, I>(schema: Schema.Schema<A, I>) =>
  Schema.optionalWith(Schema.Array(schema), { default: () => [], exact: true })

/** Where an object lives: its community pair. */
const Place = { group_id: Int, channel: Channel }

/**
 * Token prefixes of personal (`thp_`, `lhp_`) and application (`tha_`) tokens.
 *
 * @since 0.1.0
 * @category constants
 */
export const tokenPrefixes = { personal: ["thp_", "lhp_"], application: ["tha_"] } as const

/**
 * How long a token is valid after `issued_at`: 30 days, one year, or no expiry.
 *
 * @since 0.1.0
 * @category schemas
 */
export const Validity = Schema.Literal("30d", "1y", "none")

/**
 * The type {@link Validity} decodes to.
 *
 * @since 0.1.0
 * @category models
 */
export type Validity = typeof Validity.Type

/**
 * Validity in milliseconds (`undefined`: no expiry).
 *
 * @since 0.1.0
 * @category constants
 */
export const validityMillis: Record<Validity, number | undefined> = {
  "30d": 30 * 24 * 60 * 60 * 1000,
  "1y": 365 * 24 * 60 * 60 * 1000,
  none: undefined
}

const prefixOk = (kind: string, token: string): boolean => {
  const any = [...tokenPrefixes.personal, ...tokenPrefixes.application]
  if (kind === "personal") return tokenPrefixes.personal.some((p) => token.startsWith(p))
  if (kind === "application") return tokenPrefixes.application.some((p) => token.startsWith(p))
  return !any.some((p) => token.startsWith(p))
}

/**
 * A token or key. `personal` tokens start with `thp_` or `lhp_`, `application` tokens with `tha_`;
 * an `accountKey` (the older account key, v1 only) has no prefix. `product: "other"` is a token
 * issued for another product (error 4).
 *
 * @since 0.1.0
 * @category schemas
 */
export const Token = Schema.Struct({
  token: Schema.String.pipe(Schema.minLength(8)),
  user_id: Int,
  kind: Schema.Literal("personal", "application", "accountKey"),
  product: withDefault(Schema.Literal("this", "other"), () => "this" as const),
  client_id: withDefault(Schema.String, () => "personal"),
  validity: withDefault(Validity, () => "none" as const),
  issued_at: withDefault(Seconds, () => 0),
  revoked: withDefault(Schema.Boolean, () => false)
}).pipe(Schema.filter((t) =>
  prefixOk(t.kind, t.token) ? undefined : {
    path: ["token"],
    message: t.kind === "accountKey"
      ? "an account key has no thp_/lhp_/tha_ prefix"
      : `a ${t.kind} token starts with ${tokenPrefixes[t.kind].join(" or ")}`
  }
))

/**
 * The type {@link Token} decodes to.
 *
 * @since 0.1.0
 * @category models
 */
export type Token = typeof Token.Type

/**
 * An account.
 *
 * @since 0.1.0
 * @category schemas
 */
export const User = Schema.Struct({ user_id: Int, name: Schema.String })

/**
 * A community; `connected_at` orders `groups/get` (newest first).
 *
 * @since 0.1.0
 * @category schemas
 */
export const CommunityRecord = Schema.Struct({
  ...Place,
  name: Schema.String,
  photo: withDefault(Schema.String, () => ""),
  owner_id: Int,
  archived: withDefault(Schema.Boolean, () => false),
  deactivated: withDefault(Schema.Boolean, () => false),
  connected_at: Seconds
})

/**
 * An employee's roles in one community (roles work only there); `added_at` orders
 * `groups/getEmployees`.
 *
 * @since 0.1.0
 * @category schemas
 */
export const EmployeeRecord = Schema.Struct({
  ...Place,
  user_id: Int,
  roles: Schema.NonEmptyArray(Community.RoleKey),
  added_at: Seconds
})

/**
 * The subscribers of one community, by `uid`.
 *
 * @since 0.1.0
 * @category schemas
 */
export const SubscriberGroup = Schema.Struct({ ...Place, uids: Schema.Array(Int) })

/**
 * A bot. `can_enable: false` makes `bots/enable` fail with error 6.
 *
 * @since 0.1.0
 * @category schemas
 */
export const BotRecord = Schema.Struct({
  id: ObjectId,
  ...Place,
  name: Schema.String,
  active: withDefault(Flag, () => 0 as const),
  archived: withDefault(Flag, () => 0 as const),
  activity_type: withDefault(Schema.String, () => "message"),
  create_at: Seconds,
  can_enable: withDefault(Schema.Boolean, () => true),
  public_id: withDefault(Schema.Unknown, () => null),
  can_share: withDefault(Schema.Boolean, () => false),
  is_favorite: withDefault(Schema.Boolean, () => false),
  time_archived: withDefault(Seconds, () => 0),
  activity_param: withDefault(Schema.Unknown, () => null),
  subscription_ids: list(Schema.Unknown)
})

/**
 * A subscriber inside a bot, with the steps where it stays (`contacts/getBots`).
 *
 * @since 0.1.0
 * @category schemas
 */
export const BotSubscriberRecord = Schema.Struct({
  bot_id: ObjectId,
  uid: Int,
  bot_entered_at: Seconds,
  steps: list(Schema.Struct({ id: ObjectId, title: Schema.String, step_entered_at: Seconds }))
})

/**
 * A mailing; `archived` is derived from status 6.
 *
 * @since 0.1.0
 * @category schemas
 */
export const MailingRecord = Schema.Struct({
  id: ObjectId,
  ...Place,
  title: Schema.String,
  type: withDefault(Int, () => 0),
  status: Mailing.MailingStatus,
  date_send: withDefault(Seconds, () => 0),
  count: withDefault(Int, () => 0),
  delivered: withDefault(Int, () => 0),
  no_delivered: withDefault(Int, () => 0),
  create_at: Seconds
})

/**
 * A subscriber list; `blacklist: true` is the community's blacklist (never addressable).
 *
 * @since 0.1.0
 * @category schemas
 */
export const ListRecord = Schema.Struct({
  id: ObjectId,
  ...Place,
  name: Schema.String,
  blacklist: withDefault(Schema.Boolean, () => false),
  create_at: Seconds,
  uids: list(Int)
})

/**
 * A custom variable definition and its values by subscriber (`uid` as a string key).
 *
 * @since 0.1.0
 * @category schemas
 */
export const VariableRecord = Schema.Struct({
  id: ObjectId,
  ...Place,
  title: Schema.String,
  name: Schema.String,
  create_at: Seconds,
  values: withDefault(Schema.Record({ key: Schema.String, value: Schema.String }), () => ({}))
})

/**
 * A community variable.
 *
 * @since 0.1.0
 * @category schemas
 */
export const CommunityVariableRecord = Schema.Struct({
  id: ObjectId,
  ...Place,
  title: Schema.String,
  name: Schema.String,
  value: withDefault(Schema.String, () => ""),
  create_at: Seconds
})

/**
 * A landing.
 *
 * @since 0.1.0
 * @category schemas
 */
export const LandingRecord = Schema.Struct({
  id: ObjectId,
  ...Place,
  title: Schema.String,
  kind: Schema.String,
  url: Schema.String,
  create_at: Seconds
})

const FixtureFields = Schema.Struct({
  users: list(User),
  tokens: list(Token),
  communities: list(CommunityRecord),
  employees: list(EmployeeRecord),
  subscribers: list(SubscriberGroup),
  bots: list(BotRecord),
  botSubscribers: list(BotSubscriberRecord),
  mailings: list(MailingRecord),
  lists: list(ListRecord),
  variables: list(VariableRecord),
  communityVariables: list(CommunityVariableRecord),
  landings: list(LandingRecord)
})

type Fields = typeof FixtureFields.Type

/** The first broken reference or duplicate, with the path of the field that holds it. */
const consistency = (f: Fields): { path: ReadonlyArray<PropertyKey>; message: string } | undefined => {
  const users = new Set(f.users.map((u) => u.user_id))
  const communities = new Set<string>()
  for (const [i, c] of f.communities.entries()) {
    const key = `${c.channel}:${c.group_id}`
    if (communities.has(key)) return { path: ["communities", i, "group_id"], message: `duplicate community ${key}` }
    communities.add(key)
    if (!users.has(c.owner_id)) return { path: ["communities", i, "owner_id"], message: `no user ${c.owner_id}` }
  }
  for (const [i, t] of f.tokens.entries()) {
    if (!users.has(t.user_id)) return { path: ["tokens", i, "user_id"], message: `no user ${t.user_id}` }
  }
  const placed = [
    "employees",
    "subscribers",
    "bots",
    "mailings",
    "lists",
    "variables",
    "communityVariables",
    "landings"
  ] as const
  for (const field of placed) {
    const ids = new Set<string>()
    for (const [i, item] of (f[field] as ReadonlyArray<{ group_id: number; channel: string; id?: string }>).entries()) {
      if (!communities.has(`${item.channel}:${item.group_id}`)) {
        return { path: [field, i, "group_id"], message: `no community ${item.channel}:${item.group_id}` }
      }
      if (item.id !== undefined) {
        if (ids.has(item.id)) return { path: [field, i, "id"], message: `duplicate id ${item.id}` }
        ids.add(item.id)
      }
    }
  }
  for (const [i, e] of f.employees.entries()) {
    if (!users.has(e.user_id)) return { path: ["employees", i, "user_id"], message: `no user ${e.user_id}` }
  }
  const bots = new Set(f.bots.map((b) => b.id))
  for (const [i, s] of f.botSubscribers.entries()) {
    if (!bots.has(s.bot_id)) return { path: ["botSubscribers", i, "bot_id"], message: `no bot ${s.bot_id}` }
  }
  return undefined
}

/**
 * The fixture: users and tokens, communities, employees, subscribers, bots (and the subscribers inside
 * them), mailings, lists, variables, community variables and landings. Every array may be omitted.
 * References are checked: an object's community, a token's user, duplicate ids.
 *
 * @since 0.1.0
 * @category schemas
 */
export const Fixture = FixtureFields.pipe(Schema.filter((f) => consistency(f))).annotations({
  identifier: "Fixture"
})

/**
 * The type {@link Fixture} decodes to.
 *
 * @since 0.1.0
 * @category models
 */
export type Fixture = typeof Fixture.Type

/**
 * The form {@link Fixture} encodes to.
 *
 * @since 0.1.0
 * @category models
 */
export type FixtureEncoded = typeof Fixture.Encoded

/**
 * A fixture could not be read: `field` is the path of the first bad field (for example
 * `bots[3].group_id`), or empty when the file itself could not be read or parsed.
 *
 * @since 0.1.0
 * @category errors
 */
export class FixtureError extends Schema.TaggedError<FixtureError>()("FixtureError", {
  file: Schema.String,
  field: Schema.String,
  reason: Schema.String
}) {
  override get message() {
    return this.field === ""
      ? `fixture ${this.file}: ${this.reason}`
      : `fixture ${this.file}: field ${this.field}: ${this.reason}`
  }
}

/**
 * Decodes a fixture from parsed JSON, naming the first bad field.
 *
 * @example
 * ```ts
 * import { DemoFixture, Fixture } from "@community-api/server"
 * import { Effect } from "effect"
 * import { strictEqual } from "node:assert"
 *
 * // A fixture read back from its JSON form (what `--fixture` files hold): the demo data, then the same
 * // without bots, refused since its subscribers name bots it does not have.
 * const json = Fixture.encode(DemoFixture.demoFixture)
 * const fixture = await Effect.runPromise(Fixture.decode(json))
 * strictEqual(fixture.bots.length, DemoFixture.demoFixture.bots.length)
 * const error = await Effect.runPromise(Effect.flip(Fixture.decode({ ...json, bots: [] }, "no-bots.json")))
 * strictEqual(error.field, "botSubscribers[0].bot_id")
 * ```
 *
 * @since 0.1.0
 * @category decoding
 */
export const decode = (input: unknown, file = "<fixture>"): Effect.Effect<Fixture, FixtureError> =>
  Schema.decodeUnknown(Fixture)(input, { errors: "first", onExcessProperty: "error" }).pipe(
    Effect.mapError((error) => {
      const issue = Issues.first(error)
      return new FixtureError({ file, field: issue.path, reason: issue.message })
    })
  )

/**
 * Reads a fixture from a JSON file. A file that cannot be read, is not JSON or does not decode fails
 * with one line naming the file and the cause in plain words (`fixture my.json: cannot read the file:
 * no such file`, `fixture my.json: not JSON: …`, or the first bad field).
 *
 * @example
 * ```ts
 * import { DemoFixture, Fixture } from "@community-api/server"
 * import { Effect } from "effect"
 * import { mkdtempSync, writeFileSync } from "node:fs"
 * import { tmpdir } from "node:os"
 * import { join } from "node:path"
 * import { strictEqual } from "node:assert"
 *
 * // A fixture file, as the sandbox's `--fixture` reads it.
 * const file = join(mkdtempSync(join(tmpdir(), "fixture-")), "demo.json")
 * writeFileSync(file, JSON.stringify(Fixture.encode(DemoFixture.demoFixture)))
 * const fixture = await Effect.runPromise(Fixture.loadFile(file))
 * strictEqual(fixture.bots.length, DemoFixture.demoFixture.bots.length)
 * ```
 *
 * @since 0.1.0
 * @category decoding
 */
export const loadFile = (path: string): Effect.Effect<Fixture, FixtureError> =>
  Effect.tryPromise({
    try: () => fs.readFile(path, "utf8"),
    catch: (cause) => new FixtureError({ file: path, field: "", reason: `cannot read the file: ${plainCause(cause)}` })
  }).pipe(
    Effect.flatMap((text) =>
      Effect.try({
        try: () => JSON.parse(text) as unknown,
        // The parser's own words ("Unexpected end of JSON input"), without `SyntaxError:`.
        catch: (cause) => new FixtureError({ file: path, field: "", reason: `not JSON: ${plainCause(cause)}` })
      })
    ),
    Effect.flatMap((json) => decode(json, path))
  )

/**
 * Writes a fixture as JSON-ready data (the shape `loadFile` reads).
 *
 * @since 0.1.0
 * @category encoding
 */
export const encode = (fixture: Fixture): FixtureEncoded => Schema.encodeSync(Fixture)(fixture)
