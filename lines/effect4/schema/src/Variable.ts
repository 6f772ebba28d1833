/**
 * The `Variable` resources on the Effect 4 line, generated from `@community-api/schema/Variable`.
 *
 * @since 0.1.0
 */
export * from "./generated/Variable.js"
