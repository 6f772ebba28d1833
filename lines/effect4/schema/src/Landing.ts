/**
 * The `Landing` resources on the Effect 4 line, generated from `@community-api/schema/Landing`.
 *
 * @since 0.1.0
 */
export * from "./generated/Landing.js"
