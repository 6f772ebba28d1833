/**
 * The built-in demo fixture: a coffee shop's communities across several channels (one archived, one
 * deactivated, one `group_id` in two channels), employees with every role, 1,250 subscribers, 640 bots
 * in one community (so bot lists need two pages of 500), mailings in every status, lists and the
 * blacklist, variables, community variables and landings; another account with its own communities;
 * and fixed demo tokens. The notable objects are exported so tests of every package can name them.
 * The data lives in the core (`@community-api/core/DemoData`), shared with the other Effect line.
 *
 * @since 0.1.0
 */
import * as DemoData from "@community-api/core/DemoData"
import type * as Fixture from "./Fixture.js"

export {
  /**
   * An enabled bot of the main community.
   *
   * @since 0.1.0
   * @category constants
   */
  activeBotId,
  /**
   * An archived bot of the main community.
   *
   * @since 0.1.0
   * @category constants
   */
  archivedBotId,
  /**
   * The owner's archived community.
   *
   * @since 0.1.0
   * @category constants
   */
  archivedCommunity,
  /**
   * A disabled bot in the archived community: enabling it gives 8.
   *
   * @since 0.1.0
   * @category constants
   */
  archivedCommunityBotId,
  /**
   * The main community's blacklist (never addressable).
   *
   * @since 0.1.0
   * @category constants
   */
  blacklistId,
  /**
   * The owner's book club (OK).
   *
   * @since 0.1.0
   * @category constants
   */
  bookClub,
  /**
   * A bot whose starting mini-landing was deleted: enabling it gives 6.
   *
   * @since 0.1.0
   * @category constants
   */
  cannotEnableBotId,
  /**
   * A community variable of the main community (`promo_code`).
   *
   * @since 0.1.0
   * @category constants
   */
  communityVariableId,
  /**
   * The owner's deactivated community.
   *
   * @since 0.1.0
   * @category constants
   */
  deactivatedCommunity,
  /**
   * A disabled bot of the main community that can be enabled.
   *
   * @since 0.1.0
   * @category constants
   */
  enableableBotId,
  /**
   * The owner's English school (MAX).
   *
   * @since 0.1.0
   * @category constants
   */
  englishSchool,
  /**
   * An ordinary list of the main community.
   *
   * @since 0.1.0
   * @category constants
   */
  listId,
  /**
   * A mailing of the main community.
   *
   * @since 0.1.0
   * @category constants
   */
  mailingId,
  /**
   * Bots of the main community: more than one page of 500.
   *
   * @since 0.1.0
   * @category constants
   */
  mainBotCount,
  /**
   * The owner's main community (VK): every employee role, 1,250 subscribers, 640 bots.
   *
   * @since 0.1.0
   * @category constants
   */
  mainCommunity,
  /**
   * The same `group_id` as {@link mainCommunity} in Telegram; no employee has a role there.
   *
   * @since 0.1.0
   * @category constants
   */
  mainCommunityTelegram,
  /**
   * Subscribers of the main community.
   *
   * @since 0.1.0
   * @category constants
   */
  mainSubscriberCount,
  /**
   * A community of another account.
   *
   * @since 0.1.0
   * @category constants
   */
  otherCommunity,
  /**
   * A bot of the other account's community.
   *
   * @since 0.1.0
   * @category constants
   */
  otherCommunityBotId,
  /**
   * A community variable of the other account's community.
   *
   * @since 0.1.0
   * @category constants
   */
  otherCommunityCommunityVariableId,
  /**
   * A list of the other account's community.
   *
   * @since 0.1.0
   * @category constants
   */
  otherCommunityListId,
  /**
   * A subscriber of the other account's community.
   *
   * @since 0.1.0
   * @category constants
   */
  otherCommunitySubscriberUid,
  /**
   * A Telegram community of another account.
   *
   * @since 0.1.0
   * @category constants
   */
  otherCommunityTelegram,
  /**
   * A custom variable of the other account's community.
   *
   * @since 0.1.0
   * @category constants
   */
  otherCommunityVariableId,
  /**
   * The owner's site chat (CHAT).
   *
   * @since 0.1.0
   * @category constants
   */
  siteChat,
  /**
   * The first subscriber of the main community; bots work with it and `favorite_drink` has a value.
   *
   * @since 0.1.0
   * @category constants
   */
  subscriberUid,
  /**
   * A bot of the Telegram twin of the main community.
   *
   * @since 0.1.0
   * @category constants
   */
  telegramBotId,
  /**
   * The fixed demo tokens, by role. `expired` (30-day validity) was issued 31 days before 1970-01-01,
   * so it is expired under a test clock at the epoch too; `accountKey` is the older account key (v1 only).
   *
   * @since 0.1.0
   * @category constants
   */
  tokens,
  /**
   * The demo accounts.
   *
   * @since 0.1.0
   * @category constants
   */
  userIds,
  /**
   * A custom variable of the main community (`favorite_drink`).
   *
   * @since 0.1.0
   * @category constants
   */
  variableId
} from "@community-api/core/DemoData"

/**
 * The demo fixture: the core's demo data, which already has every field a fixture may leave out, so it
 * is the decoded `Fixture` as it is (the assignment checks that its plain types fit the schema's).
 *
 * @since 0.1.0
 * @category constants
 */
export const demoFixture: Fixture.Fixture = DemoData.fixture
