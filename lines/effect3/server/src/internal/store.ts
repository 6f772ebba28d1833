/**
 * The server's state: mutable maps built from a fixture, indexed for the lookups handlers make.
 * Only the request pipeline touches it, one request at a time (see `engine.ts`), so every change is
 * atomic; `toFixture` gives the state back in the fixture's shape.
 *
 * @internal
 */
import type * as Fixture from "../Fixture.js"

type Mutable<T> = { -readonly [K in keyof T]: T[K] }

export type Community = Mutable<Fixture.Fixture["communities"][number]>
export type Employee = Fixture.Fixture["employees"][number]
export type Bot = Mutable<Fixture.Fixture["bots"][number]>
export type BotSubscriber = Fixture.Fixture["botSubscribers"][number]
export type Mailing = Fixture.Fixture["mailings"][number]
export type List = Omit<Mutable<Fixture.Fixture["lists"][number]>, "uids"> & { uids: Array<number> }
export type Variable = Omit<Fixture.Fixture["variables"][number], "values"> & { values: Map<string, string> }
export type CommunityVariable = Mutable<Fixture.Fixture["communityVariables"][number]>
export type Landing = Fixture.Fixture["landings"][number]
export type Token = Mutable<Fixture.Token>

/** The key of a community: `CHANNEL:group_id`. */
export const keyOf = (place: { readonly channel: string; readonly group_id: number }): string =>
  `${place.channel}:${place.group_id}`

export interface Store {
  readonly users: Map<number, Fixture.Fixture["users"][number]>
  readonly tokens: Map<string, Token>
  readonly communities: Map<string, Community>
  readonly employees: Array<Employee>
  /** user → community key → role keys. */
  readonly roles: Map<number, Map<string, ReadonlyArray<string>>>
  readonly subscribers: Map<string, Set<number>>
  readonly bots: Map<string, Bot>
  readonly botSubscribers: Array<BotSubscriber>
  readonly mailings: Map<string, Mailing>
  readonly lists: Map<string, List>
  readonly variables: Map<string, Variable>
  readonly communityVariables: Map<string, CommunityVariable>
  readonly landings: Map<string, Landing>
  /** Next number for generated ids. */
  nextId: number
}

const byId = <A extends { readonly id: string }, B>(items: ReadonlyArray<A>, f: (a: A) => B) =>
  new Map(items.map((item) => [item.id, f(item)]))

export const fromFixture = (f: Fixture.Fixture): Store => {
  const roles = new Map<number, Map<string, ReadonlyArray<string>>>()
  for (const e of f.employees) {
    const mine = roles.get(e.user_id) ?? new Map<string, ReadonlyArray<string>>()
    mine.set(keyOf(e), [...(mine.get(keyOf(e)) ?? []), ...e.roles])
    roles.set(e.user_id, mine)
  }
  const subscribers = new Map<string, Set<number>>()
  for (const group of f.subscribers) {
    const set = subscribers.get(keyOf(group)) ?? new Set<number>()
    for (const uid of group.uids) set.add(uid)
    subscribers.set(keyOf(group), set)
  }
  return {
    users: new Map(f.users.map((u) => [u.user_id, u])),
    tokens: new Map(f.tokens.map((t) => [t.token, { ...t }])),
    communities: new Map(f.communities.map((c) => [keyOf(c), { ...c }])),
    employees: [...f.employees],
    roles,
    subscribers,
    bots: byId(f.bots, (b) => ({ ...b })),
    botSubscribers: [...f.botSubscribers],
    mailings: byId(f.mailings, (m) => m),
    lists: byId(f.lists, (l) => ({ ...l, uids: [...l.uids] })),
    variables: byId(f.variables, (v) => ({ ...v, values: new Map(Object.entries(v.values)) })),
    communityVariables: byId(f.communityVariables, (v) => ({ ...v })),
    landings: byId(f.landings, (l) => l),
    nextId: 1
  }
}

export const toFixture = (s: Store): Fixture.Fixture => {
  const subscribers: Array<Fixture.Fixture["subscribers"][number]> = []
  for (const [key, uids] of s.subscribers) {
    const community = s.communities.get(key)
    if (community !== undefined) {
      subscribers.push({ group_id: community.group_id, channel: community.channel, uids: [...uids] })
    }
  }
  return {
    users: [...s.users.values()],
    tokens: [...s.tokens.values()].map((t) => ({ ...t })),
    communities: [...s.communities.values()].map((c) => ({ ...c })),
    employees: [...s.employees],
    subscribers,
    bots: [...s.bots.values()].map((b) => ({ ...b })),
    botSubscribers: [...s.botSubscribers],
    mailings: [...s.mailings.values()],
    lists: [...s.lists.values()].map((l) => ({ ...l, uids: [...l.uids] })),
    variables: [...s.variables.values()].map((v) => ({ ...v, values: Object.fromEntries(v.values) })),
    communityVariables: [...s.communityVariables.values()].map((v) => ({ ...v })),
    landings: [...s.landings.values()]
  }
}

const isTaken = (s: Store, id: string) =>
  s.bots.has(id) || s.mailings.has(id) || s.lists.has(id) || s.variables.has(id) || s.communityVariables.has(id) ||
  s.landings.has(id)

/** A fresh 24-character id (C10), unused by any object. */
export const newId = (s: Store): string => {
  for (;;) {
    const id = `5e${(s.nextId++).toString(16).padStart(22, "0")}`
    if (!isTaken(s, id)) return id
  }
}
