/**
 * What is left of a user's limits and when it comes back, as the client's limiters read it from their
 * store (memory or Redis): `client.budget`, `Pacing.Service.budget`, `CreationQuota.Service.budget`
 * and `estimate`. The models and the arithmetic of the core's `Budget`.
 *
 * @since 0.1.0
 */

/**
 * The budgets' models (`Requests`, `Creations`, `OfUser`, `Estimate`) and arithmetic, from the core.
 *
 * @since 0.1.0
 */
export * from "@community-api/core/Budget"
