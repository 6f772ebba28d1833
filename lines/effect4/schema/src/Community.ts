/**
 * The `Community` resources on the Effect 4 line, generated from `@community-api/schema/Community`.
 *
 * @since 0.1.0
 */
export * from "./generated/Community.js"
