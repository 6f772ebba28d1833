/**
 * The Effect-native client of the version-2 community API.
 *
 * @since 0.1.0
 */

/** @since 0.1.0 */
export * as Budget from "./Budget.js"
/** @since 0.1.0 */
export * as ClientError from "./ClientError.js"
/** @since 0.1.0 */
export * as CommunityApiClient from "./CommunityApiClient.js"
/** @since 0.1.0 */
export * as CountStore from "./CountStore.js"
/** @since 0.1.0 */
export * as CreationQuota from "./CreationQuota.js"
/** @since 0.1.0 */
export * as Lane from "./Lane.js"
/** @since 0.1.0 */
export * as Metrics from "./Metrics.js"
/** @since 0.1.0 */
export * as Pacing from "./Pacing.js"
/** @since 0.1.0 */
export * as Paginate from "./Paginate.js"
/** @since 0.1.0 */
export * as PermitStore from "./PermitStore.js"
/** @since 0.1.0 */
export * as RedisStore from "./RedisStore.js"
/** @since 0.1.0 */
export * as Retry from "./Retry.js"
/** @since 0.1.0 */
export * as Target from "./Target.js"
