/**
 * The `Mailing` resources on the Effect 4 line, generated from `@community-api/schema/Mailing`.
 *
 * @since 0.1.0
 */
export * from "./generated/Mailing.js"
