/**
 * The `List` resources on the Effect 4 line, generated from `@community-api/schema/List`.
 *
 * @since 0.1.0
 */
export * from "./generated/List.js"
