/**
 * Generated fixtures for the benchmarks: the demo fixture plus one community of generated bots and
 * generated users with the `mailer` role there, built directly as a `Fixture` value (no decoding,
 * so 100,000 bots are ready in well under a second). Plain data over the core's demo data, no Effect:
 * the Effect 4 line's benchmarks take their tokens from here too.
 */
import * as DemoData from "@community-api/core/DemoData"

/** The community that holds the generated bots (owned by the demo owner). */
export const community = { group_id: 990000001, channel: "VK" } as const

/** Options of {@link make}. */
export interface Options {
  /** Bots in {@link community}. */
  readonly bots: number
  /** Generated users, each with one token and the `mailer` role in {@link community}. */
  readonly users?: number
}

/** A generated fixture and the tokens of its generated users. */
export interface BenchFixture {
  readonly fixture: DemoData.Fixture
  /** One token per generated user: the rate limit counts per user, so spreading load over them avoids it. */
  readonly userTokens: ReadonlyArray<string>
  /** The demo owner's token (owner of {@link community}). */
  readonly ownerToken: string
}

const hex = (n: number, width: number) => n.toString(16).padStart(width, "0")
const t2025 = 1_735_689_600

/** The id of generated bot `i`: 24 hex characters that no demo object uses. */
export const botId = (i: number): string => `bec0${hex(i, 20)}`

/** Builds the fixture. */
export const make = (options: Options): BenchFixture => {
  const demo = DemoData.fixture
  const users = Array.from({ length: options.users ?? 0 }, (_, i) => 900_000 + i)
  const userTokens = users.map((userId) => `thp_bench_${hex(userId, 8)}`)
  const bots: Array<DemoData.Bot> = []
  for (let i = 0; i < options.bots; i++) {
    bots.push(
      DemoData.bot({
        id: botId(i),
        ...community,
        name: `Bench bot ${i}`,
        active: (i % 2) as 0 | 1,
        create_at: t2025 + i
      })
    )
  }
  const fixture: DemoData.Fixture = {
    ...demo,
    users: [...demo.users, ...users.map((user_id) => ({ user_id, name: `Bench user ${user_id}` }))],
    tokens: [
      ...demo.tokens,
      ...users.map((user_id, i) => ({
        token: userTokens[i]!,
        user_id,
        kind: "personal" as const,
        product: "this" as const,
        client_id: "bench",
        validity: "none" as const,
        issued_at: 0,
        revoked: false
      }))
    ],
    communities: [
      ...demo.communities,
      {
        ...community,
        name: "Bench community",
        photo: "",
        owner_id: DemoData.userIds.owner,
        archived: false,
        deactivated: false,
        connected_at: t2025
      }
    ],
    employees: [
      ...demo.employees,
      ...users.map((user_id) => ({ ...community, user_id, roles: ["mailer" as const] as const, added_at: t2025 }))
    ],
    bots: [...demo.bots, ...bots]
  }
  return { fixture, userTokens, ownerToken: DemoData.tokens.owner }
}
