/**
 * The `Account` resources on the Effect 4 line, generated from `@community-api/schema/Account`.
 *
 * @since 0.1.0
 */
export * from "./generated/Account.js"
