/**
 * The `Bot` resources on the Effect 4 line, generated from `@community-api/schema/Bot`.
 *
 * @since 0.1.0
 */
export * from "./generated/Bot.js"
