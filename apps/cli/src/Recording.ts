/**
 * `community-api record`: an account read through the client, with read operations only, and written
 * as a fixture that the sandbox loads with `--fixture`. What the API shows is kept as it is (ids,
 * counts, flags, times, relations); what it does not show is filled in so that every read answers the
 * same: the order of communities and employees (the times they were connected and added are not
 * shown, so they are made up in the order the API lists them), the owner of a community the account
 * does not own (a user of its own, whom no read shows), and the account's roles in a community whose
 * employees it may not list (read from what it could read there). The subscribers are those the
 * lists show: the API lists no community's subscribers otherwise. The real token never lands in the
 * file: the account gets a sandbox token of its own, derived from the seed.
 *
 * This module is loaded only when `record` runs (see `Record`): it brings the server's fixture schema,
 * which checks the file before it is written.
 *
 * @since 0.1.0
 */
import * as Paginate from "@community-api/client/Paginate"
import { Operations } from "@community-api/schema"
import type { Operation } from "@community-api/schema"
import * as Fixture from "@community-api/server/Fixture"
import * as SeededRandom from "@community-api/server/SeededRandom"
import { Console, DateTime, Effect, Option, Predicate, Stream } from "effect"
import * as fs from "node:fs/promises"
import { Api } from "./Api.js"
import type * as ApiModule from "./Api.js"
import * as Fakes from "./Fakes.js"
import * as Progress from "./Progress.js"
import { Stdio } from "./Stdio.js"
import { UsageError } from "./UsageError.js"

/**
 * Every operation a recording sends: each one whose declaration says it only reads (so safe to repeat
 * and no creation, which the compiler checks too). Any operation whose declaration does not say it
 * reads is refused before it is sent.
 *
 * @since 0.1.0
 * @category constants
 */
export const reads = [
  Operations.users.me,
  Operations.groups.get,
  Operations.groups.getEmployees,
  Operations.bots.get,
  Operations.bots.getById,
  Operations.mailings.get,
  Operations.lists.get,
  Operations.lists.getUsers,
  Operations.contacts.getBots,
  Operations.vars.list,
  Operations.vars.get,
  Operations.globalVars.list,
  Operations.landings.get
] as const satisfies ReadonlyArray<Operation.Any & { readonly safeToRepeat: true; readonly creation: false }>

/** Reads at once: enough to keep the client's pacing busy over a slow network, few enough to stay polite. */
const concurrency = 4

/**
 * What `record` was asked for.
 *
 * @since 0.1.0
 * @category models
 */
export interface Options {
  /** The file to write. */
  readonly out: string
  /** Keep names, phone numbers, e-mail addresses and free text instead of faking them. */
  readonly keepPersonalData: boolean
  /** The seed of the fakes and of the sandbox token. */
  readonly seed: number
  /** Read the bots and variable values of at most this many subscribers of each community; all when absent. */
  readonly maxSubscribers: Option.Option<number>
}

type ItemOf<Op extends Operation.Any> = Operation.Success<Op> extends { readonly items: ReadonlyArray<infer A> } ? A
  : never

/** The reads of a recording, counted on the progress bar. */
interface Reader {
  /** One read; `None` when the account may not read it there (error 8). */
  readonly one: <Op extends Operation.Any>(
    op: Op,
    params: Operation.Params<Op>
  ) => Effect.Effect<Option.Option<Operation.Success<Op>>, unknown>
  /** Every page of a list read; `None` when the account may not read it there (error 8). */
  readonly all: <Op extends Operation.Any>(
    op: Op,
    params: Operation.Params<Op>
  ) => Effect.Effect<Option.Option<ReadonlyArray<ItemOf<Op>>>, unknown>
  /** Tells the bar that `count` more reads are coming. */
  readonly plan: (count: number) => Effect.Effect<void>
}

/** Error 8: the account has no role for this section in this community; the part is left out. */
const isDenied = (error: unknown) => Predicate.isTagged(error, "AccessDeniedError")

const makeReader = (api: ApiModule.Service, progress: Progress.Progress): Reader => {
  let done = 0
  let planned = 0
  const plan = (count: number) => Effect.sync(() => void (planned += count))
  const tick = Effect.suspend(() => {
    done += 1
    planned = Math.max(planned, done)
    return progress.update(done, planned)
  })
  const call = (op: Operation.Any, params: Record<string, unknown>) =>
    op.reads
      ? Effect.ensuring(api.execute(op, params), tick)
      : Effect.dieMessage(`${op.path} is not a read: a recording does not send it`)
  const denied = <A>(effect: Effect.Effect<A, unknown>) =>
    effect.pipe(Effect.map(Option.some), Effect.catchIf(isDenied, () => Effect.succeedNone))
  return {
    plan,
    one: (op, params) =>
      denied(call(op, params as Record<string, unknown>)) as Effect.Effect<Option.Option<any>, unknown>,
    all: (op, params) =>
      denied(
        Paginate.pages((position) =>
          // The first page was planned by the caller; each further one is told when it is asked for.
          Effect.zipRight(
            position.offset > 0 ? plan(1) : Effect.void,
            call(op, { ...(params as Record<string, unknown>), ...position }) as Effect.Effect<
              { items: ReadonlyArray<unknown>; total: number }
            >
          )
        ).pipe(Stream.runFold([] as ReadonlyArray<unknown>, (items, page) => items.concat(page.items)))
      ) as Effect.Effect<Option.Option<any>, unknown>
  }
}

const seconds = (date: DateTime.DateTime) => Math.round(DateTime.toEpochMillis(date) / 1000)

const orEmpty = <A>(items: Option.Option<ReadonlyArray<A>>): ReadonlyArray<A> => Option.getOrElse(items, () => [])

/** Oldest first, as a fixture holds what the API lists newest first: the order of equal times is kept too. */
const oldestFirst = <A>(items: ReadonlyArray<A>): Array<A> => [...items].reverse()

type Community = ItemOf<typeof Operations.groups.get>
type Records = Fakes.Complete
/** What each community adds to the fixture. */
type PartRecords = Omit<Records, "users" | "tokens" | "communities">

/** The employees of a community as a fixture holds them, and their names. */
const employeesOf = (place: Place, items: ReadonlyArray<ItemOf<typeof Operations.groups.getEmployees>>) =>
  // Newest added first: the times are not shown, so made up in that order.
  oldestFirst(items).flatMap((item, index) => {
    const [first, ...rest] = item.roles.map((role) => role.key)
    if (typeof item.user_id !== "number" || first === undefined) return []
    return [{
      employee: { ...place, user_id: item.user_id, roles: [first, ...rest] as const, added_at: index + 1 },
      user: { user_id: item.user_id, name: typeof item.name === "string" ? item.name : "" }
    }]
  })

interface Place {
  readonly group_id: Community["group_id"]
  readonly channel: Community["channel"]
}

/** What one community holds, as far as the account may read it. */
const community = (reader: Reader, found: Community, me: number, options: Pick<Options, "maxSubscribers">) =>
  Effect.gen(function*() {
    const place: Place = { group_id: found.group_id, channel: found.channel }
    yield* reader.plan(7)
    const employees = yield* reader.all(Operations.groups.getEmployees, place)
    const bots = yield* reader.all(Operations.bots.get, place)
    const mailings = yield* reader.all(Operations.mailings.get, place)
    const lists = yield* reader.all(Operations.lists.get, place)
    const variables = yield* reader.all(Operations.vars.list, place)
    const communityVariables = yield* reader.all(Operations.globalVars.list, place)
    const landings = yield* reader.all(Operations.landings.get, place)

    yield* reader.plan(orEmpty(bots).length + orEmpty(lists).length)
    const details = yield* Effect.forEach(
      orEmpty(bots),
      (bot) => reader.one(Operations.bots.getById, { bot_id: bot.id }),
      { concurrency }
    )
    const members = yield* Effect.forEach(
      orEmpty(lists),
      (list) => reader.all(Operations.lists.getUsers, { list_id: list.id }),
      { concurrency }
    )
    const uids = [...new Set(members.flatMap((found) => orEmpty(found).map((member) => member.uid)))]
      .sort((a, b) => a - b)
    const detailed = Option.match(options.maxSubscribers, { onNone: () => uids, onSome: (n) => uids.slice(0, n) })
    const definitions = orEmpty(variables)
    yield* reader.plan(detailed.length * (1 + definitions.length))
    const subscribers = yield* Effect.forEach(detailed, (uid) =>
      Effect.all({
        uid: Effect.succeed(uid),
        bots: reader.all(Operations.contacts.getBots, { ...place, uid }),
        values: Effect.forEach(definitions, (variable) => reader.one(Operations.vars.get, { var_id: variable.id, uid }))
      }), { concurrency })

    // The account's own roles where it may not list the employees: what it could read there tells them.
    const inferred = [
      ...(Option.isSome(bots) ? ["mailer" as const] : []),
      ...(Option.isSome(lists) || Option.isSome(variables) ? ["users" as const] : [])
    ]
    const own = found.is_owner || Option.isSome(employees) ? [] : [{
      ...place,
      user_id: me,
      // A role that opens neither the bots nor the subscribers: the account could read neither.
      roles: inferred.length === 0 ? ["stat" as const] as const : [inferred[0]!, ...inferred.slice(1)] as const,
      added_at: 0
    }]
    const listed = employeesOf(place, orEmpty(employees))

    const botRecords: Array<Records["bots"][number]> = oldestFirst(
      orEmpty(bots).map((bot, i) => {
        const more = Option.getOrUndefined(details[i]!)
        return {
          id: bot.id,
          ...place,
          name: bot.name,
          active: bot.active,
          archived: bot.archived,
          activity_type: bot.activity_type,
          create_at: seconds(bot.create_at),
          // Not shown by any read: only enabling a bot would tell.
          can_enable: true,
          public_id: more?.public_id ?? null,
          can_share: more?.can_share ?? false,
          is_favorite: more?.is_favorite ?? false,
          time_archived: more?.time_archived ?? 0,
          activity_param: more?.activity_param ?? null,
          subscription_ids: more?.subscription_ids ?? []
        }
      })
    )
    // A bot a subscriber is in that the account may not list (no mailer role): what contacts/getBots shows of it.
    const known = new Set(botRecords.map((bot) => bot.id))
    for (const subscriber of subscribers) {
      for (const bot of orEmpty(subscriber.bots)) {
        if (known.has(bot.id)) continue
        known.add(bot.id)
        botRecords.push({ id: bot.id, ...place, name: bot.name, create_at: 0 })
      }
    }
    const botSubscribers: Records["botSubscribers"] = subscribers.flatMap(({ bots: inside, uid }) =>
      oldestFirst(orEmpty(inside)).map((bot) => ({
        bot_id: bot.id,
        uid,
        bot_entered_at: bot.steps[0] === undefined ? 0 : seconds(bot.steps[0].bot_entered_at),
        steps: bot.steps.map((step) => ({
          id: step.id,
          title: step.title,
          step_entered_at: seconds(step.step_entered_at)
        }))
      }))
    )
    const records: PartRecords = {
      employees: [...listed.map((entry) => entry.employee), ...own],
      subscribers: uids.length === 0 ? [] : [{ ...place, uids }],
      bots: botRecords,
      botSubscribers,
      mailings: oldestFirst(orEmpty(mailings)).map((mailing) => ({
        id: mailing.id,
        ...place,
        title: mailing.title,
        type: mailing.type,
        status: mailing.status,
        date_send: seconds(mailing.date_send),
        count: mailing.count,
        delivered: mailing.delivered,
        no_delivered: mailing.no_delivered,
        create_at: seconds(mailing.create_at)
      })),
      lists: oldestFirst(
        orEmpty(lists).map((list, i) => ({
          id: list.id,
          ...place,
          name: list.name,
          blacklist: false,
          create_at: seconds(list.create_at),
          // Last added first on the wire.
          uids: oldestFirst(orEmpty(members[i]!).map((member) => member.uid))
        }))
      ),
      variables: oldestFirst(definitions.map((variable, v) => ({
        id: variable.id,
        ...place,
        title: variable.title,
        name: variable.name,
        create_at: seconds(variable.create_at),
        // An unset value reads as the empty string: only the others are values.
        values: Object.fromEntries(subscribers.flatMap(({ uid, values }) => {
          const value = Option.getOrUndefined(values[v]!)?.value ?? ""
          return value === "" ? [] : [[String(uid), value] as const]
        }))
      }))),
      communityVariables: oldestFirst(orEmpty(communityVariables)).map((variable) => ({
        id: variable.id,
        ...place,
        title: variable.title,
        name: variable.name,
        value: variable.value,
        create_at: seconds(variable.create_at)
      })),
      landings: oldestFirst(orEmpty(landings)).map((landing) => ({
        id: landing.id,
        ...place,
        title: landing.title,
        kind: landing.kind,
        url: landing.url,
        create_at: seconds(landing.create_at)
      }))
    }
    return { records, users: listed.map((entry) => entry.user) }
  })

const prefixes = { personal: "thp_", application: "tha_", accountKey: "" } as const

/** The kind of token `users/me` tells, so that the sandbox token answers it the same. */
const kindOf = (auth: string): keyof typeof prefixes =>
  auth === "application_token" ? "application" : auth === "account_key" ? "accountKey" : "personal"

/**
 * The sandbox token of the recorded account: of the kind of the token that recorded it, made from
 * the seed and the account (the same recording gives the same token), never the real one.
 *
 * @since 0.1.0
 * @category utils
 */
export const sandboxToken = (seed: number, userId: number, auth: string): string => {
  const random = SeededRandom.make(Math.imul(seed, 0x9E3779B1) ^ userId)
  const hex = Array.from({ length: 32 }, () => Math.floor(random() * 16).toString(16)).join("")
  const kind = kindOf(auth)
  return kind === "accountKey" ? hex : `${prefixes[kind]}sandbox_${hex}`
}

/**
 * What a recording read: the fixture (personal data as read) and the sandbox token of the account.
 *
 * @since 0.1.0
 * @category models
 */
export interface Recorded {
  readonly fixture: Fakes.Complete
  readonly userId: number
  readonly token: string
}

/**
 * Reads the account of the client's token into a fixture, with a progress bar of the reads on
 * standard error when it is a terminal.
 *
 * @since 0.1.0
 * @category constructors
 */
export const read = (options: Pick<Options, "seed" | "maxSubscribers">): Effect.Effect<Recorded, unknown, Api> =>
  Effect.gen(function*() {
    const api = yield* Api
    const { stderr } = yield* Stdio
    const progress = yield* Progress.make(stderr, "reads")
    const reader = makeReader(api, progress)
    return yield* Effect.gen(function*() {
      yield* reader.plan(2)
      const me = Option.getOrThrow(yield* reader.one(Operations.users.me, {}))
      const communities = orEmpty(yield* reader.all(Operations.groups.get, {}))
      const parts = yield* Effect.forEach(communities, (found) => community(reader, found, me.user_id, options))
      const users = new Map<number, string>([[me.user_id, ""]])
      for (const user of parts.flatMap((part) => part.users)) users.set(user.user_id, user.name)
      // The owner of a community the account does not own: a user no read shows, of an id of its own.
      const ownerId = Math.max(...users.keys()) + 1
      if (communities.some((c) => !c.is_owner)) users.set(ownerId, "")
      const token = sandboxToken(options.seed, me.user_id, me.auth)
      const all = <K extends keyof PartRecords>(key: K) =>
        parts.flatMap((part): ReadonlyArray<unknown> => part.records[key]) as unknown as Records[K]
      const fixture: Records = {
        users: [...users].map(([user_id, name]) => ({ user_id, name })),
        tokens: [{
          token,
          user_id: me.user_id,
          kind: kindOf(me.auth),
          product: "this",
          client_id: me.client_id,
          validity: "none",
          issued_at: 0,
          revoked: false
        }],
        // Newest connected first: the times are not shown, so made up in that order.
        communities: oldestFirst(communities).map((c, index) => ({
          group_id: c.group_id,
          channel: c.channel,
          name: c.name,
          photo: c.photo,
          owner_id: c.is_owner ? me.user_id : ownerId,
          archived: c.archived,
          deactivated: c.deactivated,
          connected_at: index + 1
        })),
        employees: all("employees"),
        subscribers: all("subscribers"),
        bots: all("bots"),
        botSubscribers: all("botSubscribers"),
        mailings: all("mailings"),
        lists: all("lists"),
        variables: all("variables"),
        communityVariables: all("communityVariables"),
        landings: all("landings")
      }
      return { fixture, userId: me.user_id, token }
    }).pipe(Effect.ensuring(progress.clear))
  })

const reasonOf = (cause: unknown): string => {
  const code = Predicate.hasProperty(cause, "code") ? String(cause.code) : ""
  if (code === "ENOENT") return "no such folder"
  if (code === "EACCES" || code === "EPERM") return "permission denied"
  if (code === "EISDIR") return "it is a folder"
  return cause instanceof Error ? cause.message : String(cause)
}

/** The file is opened before anything is read, so that a path that cannot be written fails at once. */
const openOut = (out: string) =>
  Effect.acquireRelease(
    Effect.tryPromise({
      try: () => fs.open(`${out}.partial`, "w"),
      catch: (cause) => new UsageError({ reason: `record --out: cannot write ${out}: ${reasonOf(cause)}` })
    }),
    (handle, exit) =>
      Effect.promise(async () => {
        await handle.close().catch(() => undefined)
        // Interrupted or failed: no half-written file is left behind.
        if (exit._tag === "Failure") await fs.rm(`${out}.partial`, { force: true })
      })
  )

/** One line of counts: `9 communities, 668 bots, …`. */
const counts = (fixture: Records): string =>
  [
    [fixture.communities.length, "communities"],
    [fixture.employees.length, "employees"],
    [fixture.subscribers.reduce((n, group) => n + group.uids.length, 0), "subscribers"],
    [fixture.bots.length, "bots"],
    [fixture.mailings.length, "mailings"],
    [fixture.lists.length, "lists"],
    [fixture.variables.length, "variables"],
    [fixture.communityVariables.length, "community variables"],
    [fixture.landings.length, "landings"]
  ].map(([n, what]) => `${n} ${what}`).join(", ")

/**
 * Runs an effect on the client of the command's credentials (`Session.provide`).
 *
 * @since 0.1.0
 * @category models
 */
export type Provide = <A>(effect: Effect.Effect<A, unknown, Api>) => Effect.Effect<A, unknown>

/**
 * Records the account into `options.out`: opens the file (a path that cannot be written fails before
 * the client is even made), reads the account on the client `provide` gives ({@link read}), fakes its personal data unless
 * asked to keep it, checks the fixture with the sandbox's own schema, writes it whole (never a half
 * file) and says on standard output what it holds and the sandbox token of the account.
 *
 * @since 0.1.0
 * @category constructors
 */
export const record = (options: Options, provide: Provide): Effect.Effect<void, unknown> =>
  Effect.scoped(Effect.gen(function*() {
    const handle = yield* openOut(options.out)
    const recorded = yield* provide(read(options))
    const fixture = options.keepPersonalData
      ? recorded.fixture
      : Fakes.fixture(recorded.fixture, Fakes.make(options.seed))
    // A fixture the sandbox would refuse is a bug of the recording: it is not written.
    yield* Effect.orDie(Fixture.decode(fixture, options.out))
    yield* Effect.tryPromise({
      try: async () => {
        await handle.writeFile(`${JSON.stringify(fixture, null, 2)}\n`, "utf8")
        await handle.close()
        await fs.rename(`${options.out}.partial`, options.out)
      },
      catch: (cause) => new UsageError({ reason: `record --out: cannot write ${options.out}: ${reasonOf(cause)}` })
    })
    yield* Console.log(
      [
        `Recorded ${counts(fixture)} into ${options.out}` +
        (options.keepPersonalData ? ", with the personal data as read." : ", with made-up personal data."),
        `The sandbox token of the recorded account (user ${recorded.userId}): ${recorded.token}`,
        `Replay it: community-api serve --fixture ${options.out}`
      ].join("\n")
    )
  }))
