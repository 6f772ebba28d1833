/**
 * The demo data: a coffee shop's communities across several channels (one archived, one deactivated,
 * one `group_id` in two channels), employees with every role, 1,250 subscribers, 640 bots in one
 * community (so bot lists need two pages of 500), mailings in every status, lists and the blacklist,
 * variables, community variables and landings; another account with its own communities; and fixed
 * demo tokens. Plain data in the fixture format's JSON form with every field present, so that each
 * Effect line seeds its reference server and tests against the same objects; the notable ones are
 * exported so tests of every package can name them.
 *
 * @since 0.1.0
 */

/**
 * A channel, in upper case.
 *
 * @since 0.1.0
 * @category models
 */
export type Channel = "VK" | "TG" | "OK" | "MAX" | "CHAT" | "AVITO"

/**
 * Where an object lives: its community pair.
 *
 * @since 0.1.0
 * @category models
 */
export interface Place {
  readonly group_id: number
  readonly channel: Channel
}

/**
 * An account.
 *
 * @since 0.1.0
 * @category models
 */
export interface User {
  readonly user_id: number
  readonly name: string
}

/**
 * A token or key: `personal` tokens start with `thp_` or `lhp_`, `application` tokens with `tha_`, an
 * `accountKey` (the older account key, v1 only) has no prefix; `product: "other"` is a token issued for
 * another product; `validity` counts from `issued_at` (unix seconds).
 *
 * @since 0.1.0
 * @category models
 */
export interface Token {
  readonly token: string
  readonly user_id: number
  readonly kind: "personal" | "application" | "accountKey"
  readonly product: "this" | "other"
  readonly client_id: string
  readonly validity: "30d" | "1y" | "none"
  readonly issued_at: number
  readonly revoked: boolean
}

/**
 * A community; `connected_at` orders `groups/get` (newest first).
 *
 * @since 0.1.0
 * @category models
 */
export interface Community extends Place {
  readonly name: string
  readonly photo: string
  readonly owner_id: number
  readonly archived: boolean
  readonly deactivated: boolean
  readonly connected_at: number
}

/**
 * The key of an employee's role.
 *
 * @since 0.1.0
 * @category models
 */
export type RoleKey = "admin" | "mailer" | "users" | "integrations" | "stat" | "event" | "dogs" | "crm"

/**
 * An employee's roles in one community.
 *
 * @since 0.1.0
 * @category models
 */
export interface Employee extends Place {
  readonly user_id: number
  readonly roles: readonly [RoleKey, ...Array<RoleKey>]
  readonly added_at: number
}

/**
 * The subscribers of one community, by `uid`.
 *
 * @since 0.1.0
 * @category models
 */
export interface SubscriberGroup extends Place {
  readonly uids: ReadonlyArray<number>
}

/**
 * A bot; `can_enable: false` makes `bots/enable` fail with error 6.
 *
 * @since 0.1.0
 * @category models
 */
export interface Bot extends Place {
  readonly id: string
  readonly name: string
  readonly active: 0 | 1
  readonly archived: 0 | 1
  readonly activity_type: string
  readonly create_at: number
  readonly can_enable: boolean
  readonly public_id: unknown
  readonly can_share: boolean
  readonly is_favorite: boolean
  readonly time_archived: number
  readonly activity_param: unknown
  readonly subscription_ids: ReadonlyArray<unknown>
}

/**
 * A subscriber inside a bot, with the steps where it stays.
 *
 * @since 0.1.0
 * @category models
 */
export interface BotSubscriber {
  readonly bot_id: string
  readonly uid: number
  readonly bot_entered_at: number
  readonly steps: ReadonlyArray<{ readonly id: string; readonly title: string; readonly step_entered_at: number }>
}

/**
 * A mailing's status.
 *
 * @since 0.1.0
 * @category models
 */
export type MailingStatus = 0 | 1 | 2 | 3 | 4 | 6 | 7

/**
 * A mailing.
 *
 * @since 0.1.0
 * @category models
 */
export interface Mailing extends Place {
  readonly id: string
  readonly title: string
  readonly type: number
  readonly status: MailingStatus
  readonly date_send: number
  readonly count: number
  readonly delivered: number
  readonly no_delivered: number
  readonly create_at: number
}

/**
 * A subscriber list; `blacklist: true` is the community's blacklist.
 *
 * @since 0.1.0
 * @category models
 */
export interface List extends Place {
  readonly id: string
  readonly name: string
  readonly blacklist: boolean
  readonly create_at: number
  readonly uids: ReadonlyArray<number>
}

/**
 * A custom variable and its values by subscriber (`uid` as a string key).
 *
 * @since 0.1.0
 * @category models
 */
export interface Variable extends Place {
  readonly id: string
  readonly title: string
  readonly name: string
  readonly create_at: number
  readonly values: Readonly<Record<string, string>>
}

/**
 * A community variable.
 *
 * @since 0.1.0
 * @category models
 */
export interface CommunityVariable extends Place {
  readonly id: string
  readonly title: string
  readonly name: string
  readonly value: string
  readonly create_at: number
}

/**
 * A landing.
 *
 * @since 0.1.0
 * @category models
 */
export interface Landing extends Place {
  readonly id: string
  readonly title: string
  readonly kind: string
  readonly url: string
  readonly create_at: number
}

/**
 * Everything a reference server holds, in the fixture format's JSON form with every field present.
 *
 * @since 0.1.0
 * @category models
 */
export interface Fixture {
  readonly users: ReadonlyArray<User>
  readonly tokens: ReadonlyArray<Token>
  readonly communities: ReadonlyArray<Community>
  readonly employees: ReadonlyArray<Employee>
  readonly subscribers: ReadonlyArray<SubscriberGroup>
  readonly bots: ReadonlyArray<Bot>
  readonly botSubscribers: ReadonlyArray<BotSubscriber>
  readonly mailings: ReadonlyArray<Mailing>
  readonly lists: ReadonlyArray<List>
  readonly variables: ReadonlyArray<Variable>
  readonly communityVariables: ReadonlyArray<CommunityVariable>
  readonly landings: ReadonlyArray<Landing>
}

/**
 * The fields of a bot a fixture must give; the others may be left out.
 *
 * @since 0.1.0
 * @category models
 */
export type BotFields = Pick<Bot, "id" | "group_id" | "channel" | "name" | "create_at"> & Partial<Bot>

/**
 * A bot with the fixture format's defaults for the fields left out: disabled, not archived, started
 * by a message, can be enabled, not shared, not a favourite.
 *
 * @since 0.1.0
 * @category constructors
 */
export const bot = (fields: BotFields): Bot => ({
  active: 0,
  archived: 0,
  activity_type: "message",
  can_enable: true,
  public_id: null,
  can_share: false,
  is_favorite: false,
  time_archived: 0,
  activity_param: null,
  subscription_ids: [],
  ...fields
})

/**
 * The fixed demo tokens, by role. `expired` (30-day validity) was issued 31 days before 1970-01-01,
 * so it is expired under a test clock at the epoch too; `accountKey` is the older account key (v1 only).
 *
 * @since 0.1.0
 * @category constants
 */
export const tokens = {
  owner: "thp_demo_owner_4f9a1c2e8b7d3065",
  admin: "tha_demo_admin_7c3e9b1a5d2f4068",
  mailer: "lhp_demo_mailer_2b8d4f6a1c9e3057",
  users: "thp_demo_users_9e1f3a5c7b2d4086",
  stat: "thp_demo_stat_5a7c9e1b3d2f4608",
  noRole: "thp_demo_norole_1d3f5b7a9c2e4680",
  expired: "thp_demo_expired_6b8a2c4e1f3d5079",
  revoked: "thp_demo_revoked_3c5e7a9b1d2f4860",
  otherProduct: "thp_demo_otherproduct_8d2f4b6a1c3e5097",
  accountKey: "7f3a9c1e5b2d4f6081a3c5e7b9d1f2a4",
  otherOwner: "thp_demo_other_owner_4e6a8c2b1d3f5079",
  integrations: "thp_demo_integrations_2a4c6e8b1d3f5070",
  crm: "thp_demo_crm_5c7e9a1b3d2f4806"
} as const

/**
 * The demo accounts.
 *
 * @since 0.1.0
 * @category constants
 */
export const userIds = {
  owner: 1001,
  admin: 1002,
  mailer: 1003,
  users: 1004,
  stat: 1005,
  noRole: 1006,
  integrations: 1007,
  eventAndDogs: 1008,
  crm: 1009,
  otherOwner: 2001
} as const

/**
 * The owner's main community (VK): every employee role, 1,250 subscribers, 640 bots.
 *
 * @since 0.1.0
 * @category constants
 */
export const mainCommunity = { group_id: 218340001, channel: "VK" } as const
/**
 * The same `group_id` as {@link mainCommunity} in Telegram; no employee has a role there.
 *
 * @since 0.1.0
 * @category constants
 */
export const mainCommunityTelegram = { group_id: 218340001, channel: "TG" } as const
/**
 * The owner's book club (OK).
 *
 * @since 0.1.0
 * @category constants
 */
export const bookClub = { group_id: 57120044, channel: "OK" } as const
/**
 * The owner's English school (MAX).
 *
 * @since 0.1.0
 * @category constants
 */
export const englishSchool = { group_id: 9030017, channel: "MAX" } as const
/**
 * The owner's site chat (CHAT).
 *
 * @since 0.1.0
 * @category constants
 */
export const siteChat = { group_id: 5512, channel: "CHAT" } as const
/**
 * The owner's archived community.
 *
 * @since 0.1.0
 * @category constants
 */
export const archivedCommunity = { group_id: 77410023, channel: "AVITO" } as const
/**
 * The owner's deactivated community.
 *
 * @since 0.1.0
 * @category constants
 */
export const deactivatedCommunity = { group_id: 218340077, channel: "VK" } as const
/**
 * A community of another account.
 *
 * @since 0.1.0
 * @category constants
 */
export const otherCommunity = { group_id: 300500001, channel: "VK" } as const
/**
 * A Telegram community of another account.
 *
 * @since 0.1.0
 * @category constants
 */
export const otherCommunityTelegram = { group_id: 300500002, channel: "TG" } as const

/** An object id: a two-character kind, then `n` in hex, 24 characters in all. */
const id = (kind: string, n: number) => `${kind}${n.toString(16).padStart(24 - kind.length, "0")}`
const botId = (n: number) => id("b0", n)

/**
 * Bots of the main community: more than one page of 500.
 *
 * @since 0.1.0
 * @category constants
 */
export const mainBotCount = 640

/** Bot `i` of the main community: every third is enabled, every tenth archived, every fiftieth cannot be enabled. */
const mainBotState = (i: number) => ({
  archived: i % 10 === 9 ? 1 as const : 0 as const,
  active: i % 3 === 0 && i % 10 !== 9 ? 1 as const : 0 as const,
  can_enable: i % 50 !== 7
})

/**
 * A disabled bot of the main community that can be enabled.
 *
 * @since 0.1.0
 * @category constants
 */
export const enableableBotId = botId(1)
/**
 * An enabled bot of the main community.
 *
 * @since 0.1.0
 * @category constants
 */
export const activeBotId = botId(0)
/**
 * A bot whose starting mini-landing was deleted: enabling it gives 6.
 *
 * @since 0.1.0
 * @category constants
 */
export const cannotEnableBotId = botId(7)
/**
 * An archived bot of the main community.
 *
 * @since 0.1.0
 * @category constants
 */
export const archivedBotId = botId(9)
/**
 * A disabled bot in the archived community: enabling it gives 8.
 *
 * @since 0.1.0
 * @category constants
 */
export const archivedCommunityBotId = botId(0x10001)
/**
 * A bot of the other account's community.
 *
 * @since 0.1.0
 * @category constants
 */
export const otherCommunityBotId = botId(0x20001)
/**
 * A bot of the Telegram twin of the main community.
 *
 * @since 0.1.0
 * @category constants
 */
export const telegramBotId = botId(0x30001)
/**
 * An ordinary list of the main community.
 *
 * @since 0.1.0
 * @category constants
 */
export const listId = id("1c", 1)
/**
 * The main community's blacklist (never addressable).
 *
 * @since 0.1.0
 * @category constants
 */
export const blacklistId = id("1c", 9)
/**
 * A list of the other account's community.
 *
 * @since 0.1.0
 * @category constants
 */
export const otherCommunityListId = id("1c", 0x20001)
/**
 * A custom variable of the main community (`favorite_drink`).
 *
 * @since 0.1.0
 * @category constants
 */
export const variableId = id("7a", 2)
/**
 * A custom variable of the other account's community.
 *
 * @since 0.1.0
 * @category constants
 */
export const otherCommunityVariableId = id("7a", 0x20001)
/**
 * A community variable of the main community (`promo_code`).
 *
 * @since 0.1.0
 * @category constants
 */
export const communityVariableId = id("9c", 3)
/**
 * A community variable of the other account's community.
 *
 * @since 0.1.0
 * @category constants
 */
export const otherCommunityCommunityVariableId = id("9c", 0x20001)
/**
 * A mailing of the main community.
 *
 * @since 0.1.0
 * @category constants
 */
export const mailingId = id("a1", 1)
/**
 * The first subscriber of the main community; bots work with it and `favorite_drink` has a value.
 *
 * @since 0.1.0
 * @category constants
 */
export const subscriberUid = 100000001
/**
 * A subscriber of the other account's community.
 *
 * @since 0.1.0
 * @category constants
 */
export const otherCommunitySubscriberUid = 300000001
/**
 * Subscribers of the main community.
 *
 * @since 0.1.0
 * @category constants
 */
export const mainSubscriberCount = 1250

const day = 86_400
const t2024 = 1_704_067_200 // 2024-01-01T00:00:00Z

const botNames = [
  "Приветствие новых подписчиков",
  "Запись на дегустацию",
  "Бонусная программа",
  "Опрос после визита",
  "Розыгрыш кофе недели",
  "Напоминание о заказе",
  "Поздравление с днём рождения",
  "Сбор отзывов",
  "Подписка на новинки",
  "Бронирование столика"
]

const range = (from: number, count: number) => Array.from({ length: count }, (_, i) => from + i)

const mainBots = range(0, mainBotCount).map((i) => {
  const state = mainBotState(i)
  const create_at = t2024 + 40 * day + i * 3600
  return {
    id: botId(i),
    ...mainCommunity,
    name: `${botNames[i % botNames.length]} №${i + 1}`,
    ...state,
    activity_type: i % 4 === 0 ? "subscription" : "message",
    create_at,
    public_id: i % 5 === 0 ? `share-${i}` : null,
    can_share: i % 5 === 0,
    is_favorite: i % 11 === 0,
    time_archived: state.archived === 1 ? create_at + 30 * day : 0,
    activity_param: i % 4 === 0 ? id("1d", 1 + (i % 4)) : null,
    subscription_ids: i % 4 === 0 ? [id("5b", i)] : []
  }
})

const otherBots = [
  ...range(0, 25).map((i) => ({
    id: botId(0x30000 + i),
    ...mainCommunityTelegram,
    name: `${botNames[i % botNames.length]} (Telegram)`,
    active: i % 2 === 0 ? 1 as const : 0 as const,
    create_at: t2024 + 70 * day + i * 7200
  })),
  ...range(0, 3).map((i) => ({
    id: botId(0x10000 + i),
    ...archivedCommunity,
    name: ["Ответы на вопросы о доставке", "Сбор заявок на мебель", "Скидка постоянным клиентам"][i]!,
    create_at: t2024 - 40 * day + i * day
  })),
  ...range(0, 6).map((i) => ({
    id: botId(0x20000 + i),
    ...otherCommunity,
    name: ["Запись на тренировку", "Абонемент", "Питание", "Расписание", "Акция месяца", "Отзывы"][i]!,
    active: i % 2 === 0 ? 1 as const : 0 as const,
    create_at: t2024 + 90 * day + i * day
  }))
]

const statuses = [0, 1, 2, 3, 4, 6, 7] as const
const mailingTitles = ["Скидка 20% на капучино", "Новое осеннее меню", "Приглашение на дегустацию"]

const mailings = [
  ...statuses.flatMap((status, s) =>
    mailingTitles.map((title, k) => {
      const n = s * 3 + k + 1
      const sent = status === 1 || status === 3 || status === 6 || status === 7
      const count = sent ? 1250 - n * 17 : 0
      return {
        id: id("a1", n),
        ...mainCommunity,
        title: `${title} — ${n}`,
        type: k % 2,
        status,
        date_send: t2024 + (100 + n) * day,
        count,
        delivered: sent ? count - 25 : 0,
        no_delivered: sent ? 25 : 0,
        create_at: t2024 + (90 + n) * day
      }
    })
  ),
  ...range(0, 4).map((i) => ({
    id: id("a1", 0x30000 + i),
    ...mainCommunityTelegram,
    title: `Новости кофейни в Telegram №${i + 1}`,
    status: statuses[i]!,
    create_at: t2024 + (120 + i) * day
  })),
  ...range(0, 2).map((i) => ({
    id: id("a1", 0x20000 + i),
    ...otherCommunity,
    title: `Расписание тренировок №${i + 1}`,
    status: 3 as const,
    count: 30,
    delivered: 30,
    create_at: t2024 + (130 + i) * day
  }))
]

const mainUids = range(subscriberUid, mainSubscriberCount)

/**
 * The demo data.
 *
 * @since 0.1.0
 * @category constants
 */
export const fixture: Fixture = {
  users: [
    { user_id: userIds.owner, name: "Анна Смирнова" },
    { user_id: userIds.admin, name: "Игорь Петров" },
    { user_id: userIds.mailer, name: "Мария Иванова" },
    { user_id: userIds.users, name: "Олег Кузнецов" },
    { user_id: userIds.stat, name: "Елена Соколова" },
    { user_id: userIds.noRole, name: "Дмитрий Попов" },
    { user_id: userIds.integrations, name: "Светлана Лебедева" },
    { user_id: userIds.eventAndDogs, name: "Павел Козлов" },
    { user_id: userIds.crm, name: "Наталья Новикова" },
    { user_id: userIds.otherOwner, name: "Борис Морозов" }
  ],
  tokens: [
    { token: tokens.owner, user_id: userIds.owner, kind: "personal" },
    { token: tokens.admin, user_id: userIds.admin, kind: "application", client_id: "app-crm-connector" },
    { token: tokens.mailer, user_id: userIds.mailer, kind: "personal", validity: "none" },
    { token: tokens.users, user_id: userIds.users, kind: "personal" },
    { token: tokens.stat, user_id: userIds.stat, kind: "personal" },
    { token: tokens.noRole, user_id: userIds.noRole, kind: "personal" },
    { token: tokens.expired, user_id: userIds.owner, kind: "personal", validity: "30d", issued_at: -31 * day },
    { token: tokens.revoked, user_id: userIds.owner, kind: "personal", revoked: true },
    { token: tokens.otherProduct, user_id: userIds.owner, kind: "personal", product: "other" },
    { token: tokens.accountKey, user_id: userIds.owner, kind: "accountKey", client_id: "account" },
    { token: tokens.otherOwner, user_id: userIds.otherOwner, kind: "personal" },
    { token: tokens.integrations, user_id: userIds.integrations, kind: "personal" },
    { token: tokens.crm, user_id: userIds.crm, kind: "personal" }
  ].map((t) =>
    ({
      product: "this" as const,
      client_id: "personal",
      validity: "none" as const,
      issued_at: 0,
      revoked: false,
      ...t
    }) as Token
  ),
  communities: [
    {
      ...deactivatedCommunity,
      name: "Кофейня «Зерно» — старая группа",
      deactivated: true,
      connected_at: t2024 - 200 * day
    },
    { ...archivedCommunity, name: "Авито: мебель ручной работы", archived: true, connected_at: t2024 - 50 * day },
    { ...mainCommunity, name: "Кофейня «Зерно»", connected_at: t2024 + 31 * day },
    { ...mainCommunityTelegram, name: "Кофейня «Зерно» — Telegram", connected_at: t2024 + 69 * day },
    { ...otherCommunity, name: "Фитнес-студия «Пульс»", owner_id: userIds.otherOwner, connected_at: t2024 + 94 * day },
    { ...bookClub, name: "Книжный клуб «Переплёт»", connected_at: t2024 + 140 * day },
    {
      ...otherCommunityTelegram,
      name: "Пульс — расписание",
      owner_id: userIds.otherOwner,
      connected_at: t2024 + 157 * day
    },
    { ...englishSchool, name: "Школа английского Speak Up", connected_at: t2024 + 182 * day },
    { ...siteChat, name: "Онлайн-чат сайта zerno.coffee", connected_at: t2024 + 258 * day }
  ].map((c) => ({
    photo: `https://images.example.com/communities/${c.channel.toLowerCase()}-${c.group_id}.jpg`,
    owner_id: userIds.owner,
    archived: false,
    deactivated: false,
    ...c
  })),
  employees: [
    { ...mainCommunity, user_id: userIds.admin, roles: ["admin"] as const, added_at: t2024 + 35 * day },
    { ...mainCommunity, user_id: userIds.mailer, roles: ["mailer"] as const, added_at: t2024 + 40 * day },
    { ...mainCommunity, user_id: userIds.users, roles: ["users"] as const, added_at: t2024 + 45 * day },
    { ...mainCommunity, user_id: userIds.stat, roles: ["stat"] as const, added_at: t2024 + 50 * day },
    { ...mainCommunity, user_id: userIds.integrations, roles: ["integrations"] as const, added_at: t2024 + 55 * day },
    { ...mainCommunity, user_id: userIds.eventAndDogs, roles: ["event", "dogs"] as const, added_at: t2024 + 60 * day },
    { ...mainCommunity, user_id: userIds.crm, roles: ["crm"] as const, added_at: t2024 + 65 * day },
    { ...bookClub, user_id: userIds.stat, roles: ["stat"] as const, added_at: t2024 + 150 * day },
    { ...archivedCommunity, user_id: userIds.mailer, roles: ["mailer"] as const, added_at: t2024 - 45 * day }
  ],
  subscribers: [
    { ...mainCommunity, uids: mainUids },
    { ...mainCommunityTelegram, uids: range(123456001, 80) },
    { ...bookClub, uids: range(570000001, 40) },
    { ...archivedCommunity, uids: range(774100001, 12) },
    { ...otherCommunity, uids: range(otherCommunitySubscriberUid, 30) }
  ],
  bots: [...mainBots, ...otherBots].map(bot),
  botSubscribers: range(0, 20).flatMap((k) =>
    [0, 3, 6].filter((b) => (k + b) % 2 === 0 || k === 0).map((b) => ({
      bot_id: botId(b),
      uid: subscriberUid + k,
      bot_entered_at: t2024 + 200 * day + k * 3600,
      steps: range(0, 1 + (k % 2)).map((s) => ({
        id: id("5f", b * 16 + s + 1),
        title: ["Приветствие", "Выбор напитка", "Оценка визита"][s]!,
        step_entered_at: t2024 + 200 * day + k * 3600 + s * 600
      }))
    }))
  ),
  mailings: mailings.map((m) => ({ type: 0, date_send: 0, count: 0, delivered: 0, no_delivered: 0, ...m })),
  lists: [
    {
      id: listId,
      ...mainCommunity,
      name: "Постоянные гости",
      create_at: t2024 + 41 * day,
      uids: mainUids.slice(0, 300)
    },
    {
      id: id("1c", 2),
      ...mainCommunity,
      name: "Участники дегустации",
      create_at: t2024 + 60 * day,
      uids: mainUids.slice(100, 160)
    },
    { id: id("1c", 3), ...mainCommunity, name: "Скидки и акции", create_at: t2024 + 80 * day, uids: [] },
    {
      id: blacklistId,
      ...mainCommunity,
      name: "Чёрный список",
      blacklist: true,
      create_at: t2024 + 31 * day,
      uids: [subscriberUid + 1249]
    },
    { id: id("1c", 0x30001), ...mainCommunityTelegram, name: "Читатели канала", create_at: t2024 + 70 * day, uids: [] },
    { id: otherCommunityListId, ...otherCommunity, name: "Клиенты студии", create_at: t2024 + 95 * day, uids: [] }
  ].map((l) => ({ blacklist: false, ...l })),
  variables: [
    {
      id: id("7a", 1),
      ...mainCommunity,
      title: "Имя гостя",
      name: "guest_name",
      create_at: t2024 + 42 * day,
      values: { [subscriberUid]: "Анна" }
    },
    {
      id: variableId,
      ...mainCommunity,
      title: "Любимый напиток",
      name: "favorite_drink",
      create_at: t2024 + 43 * day,
      values: { [subscriberUid]: "Раф" }
    },
    {
      id: id("7a", 3),
      ...mainCommunity,
      title: "Бонусные баллы",
      name: "bonus_points",
      create_at: t2024 + 44 * day,
      values: {}
    },
    { id: id("7a", 4), ...mainCommunity, title: "Город", name: "city", create_at: t2024 + 46 * day, values: {} },
    {
      id: otherCommunityVariableId,
      ...otherCommunity,
      title: "Абонемент",
      name: "membership",
      create_at: t2024 + 96 * day,
      values: {}
    }
  ],
  communityVariables: [
    {
      id: id("9c", 1),
      ...mainCommunity,
      title: "Адрес кофейни",
      name: "address",
      value: "Москва, ул. Покровка, 12",
      create_at: t2024 + 42 * day
    },
    {
      id: id("9c", 2),
      ...mainCommunity,
      title: "Часы работы",
      name: "hours",
      value: "8:00–22:00",
      create_at: t2024 + 43 * day
    },
    {
      id: communityVariableId,
      ...mainCommunity,
      title: "Промокод недели",
      name: "promo_code",
      value: "ЗЕРНО15",
      create_at: t2024 + 44 * day
    },
    {
      id: otherCommunityCommunityVariableId,
      ...otherCommunity,
      title: "Телефон студии",
      name: "phone",
      value: "+7 495 000-00-00",
      create_at: t2024 + 97 * day
    }
  ],
  landings: [
    ...["Акция недели", "Запись на дегустацию", "Бонусная карта", "Меню на вынос"].map((title, i) => ({
      id: id("1d", i + 1),
      ...mainCommunity,
      title,
      kind: i % 2 === 0 ? "mini" : "multi",
      url: `https://landing.example.com/zerno/${i + 1}`,
      create_at: t2024 + (50 + i * 10) * day
    })),
    {
      id: id("1d", 0x30001),
      ...mainCommunityTelegram,
      title: "Подписка на канал",
      kind: "multi",
      url: "https://landing.example.com/zerno-tg",
      create_at: t2024 + 75 * day
    },
    {
      id: id("1d", 0x20001),
      ...otherCommunity,
      title: "Пробная тренировка",
      kind: "mini",
      url: "https://landing.example.com/puls",
      create_at: t2024 + 98 * day
    }
  ]
}
