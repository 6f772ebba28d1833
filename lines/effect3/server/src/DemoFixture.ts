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

/**
 * The demo tokens and accounts, and the notable communities, ids and counts of the demo data.
 *
 * @since 0.1.0
 * @category constants
 */
export {
  activeBotId,
  archivedBotId,
  archivedCommunity,
  archivedCommunityBotId,
  blacklistId,
  bookClub,
  cannotEnableBotId,
  communityVariableId,
  deactivatedCommunity,
  enableableBotId,
  englishSchool,
  listId,
  mailingId,
  mainBotCount,
  mainCommunity,
  mainCommunityTelegram,
  mainSubscriberCount,
  otherCommunity,
  otherCommunityBotId,
  otherCommunityCommunityVariableId,
  otherCommunityListId,
  otherCommunitySubscriberUid,
  otherCommunityTelegram,
  otherCommunityVariableId,
  siteChat,
  subscriberUid,
  telegramBotId,
  tokens,
  userIds,
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
