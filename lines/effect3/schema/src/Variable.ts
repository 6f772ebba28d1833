/**
 * Custom (per-subscriber) variables and community variables, with the rules for their
 * names.
 *
 * @since 0.1.0
 */
import * as Wire from "@community-api/core/Wire"
import { Schema } from "effect"
import { UnixSeconds } from "./Dates.js"
import { CommunityVariableId, VariableId } from "./Ids.js"

/**
 * The longest `title` or `name` of a variable.
 *
 * @since 0.1.0
 * @category constants
 */
export const maxTextLength = Wire.maxTextLength

/**
 * The longest value of a variable (`vars/set`) or community variable (`globalVars/create`,
 * `globalVars/set`), in UTF-16 code units as `String.length` counts them. An assumption: the spec
 * gives no bound. The reference server refuses a longer value with 7; the contract's payloads do not
 * carry the bound, so a client never refuses a value the real service might take.
 *
 * @since 0.1.0
 * @category constants
 */
export const maxValueLength = Wire.maxValueLength

/**
 * Characters a variable's short name must not contain.
 *
 * @since 0.1.0
 * @category constants
 */
export const forbiddenNameCharacters = Wire.forbiddenNameCharacters

/**
 * A sequence a variable's short name must not contain.
 *
 * @since 0.1.0
 * @category constants
 */
export const forbiddenNameSequence = Wire.forbiddenNameSequence

/**
 * The first thing that makes `name` unusable as a short name, as the text to quote, or `undefined`.
 *
 * @since 0.1.0
 * @category utils
 */
export const forbiddenInName: (name: string) => string | undefined = Wire.forbiddenInName

/**
 * A variable's display title: 1 to 120 characters.
 *
 * @since 0.1.0
 * @category schemas
 */
export const VariableTitle = Schema.String.pipe(
  Schema.minLength(1, { message: () => Wire.textMessages.empty("title") }),
  Schema.maxLength(maxTextLength, { message: () => Wire.textMessages.tooLong("title", maxTextLength) })
).annotations({ identifier: "VariableTitle" })

/**
 * A variable's short name: 1 to 120 characters, none of the forbidden characters and no `_NAME`.
 *
 * @since 0.1.0
 * @category schemas
 */
export const VariableName = Schema.String.pipe(
  Schema.minLength(1, { message: () => Wire.textMessages.empty("name") }),
  Schema.maxLength(maxTextLength, { message: () => Wire.textMessages.tooLong("name", maxTextLength) }),
  Schema.filter((name) => {
    const found = forbiddenInName(name)
    return found === undefined ? true : Wire.textMessages.forbidden("name", found)
  }, {
    // The same rule for JSON Schema readers: none of the characters, and not the sequence. No
    // lookahead in the pattern: effect's Arbitrary turns it into a generator, which cannot use one.
    jsonSchema: Wire.nameJsonSchema
  })
).annotations({ identifier: "VariableName" })

/**
 * A custom variable definition: an item of `vars/list`, the result of `vars/create`.
 *
 * @since 0.1.0
 * @category schemas
 */
export const VariableDefinition = Schema.Struct({
  id: VariableId,
  title: Schema.String,
  name: Schema.String,
  create_at: UnixSeconds
}).annotations({ identifier: "VariableDefinition" })

/**
 * The type {@link VariableDefinition} decodes to.
 *
 * @since 0.1.0
 * @category models
 */
export type VariableDefinition = typeof VariableDefinition.Type

/**
 * The value of a custom variable for one subscriber: the result of `vars/get`.
 *
 * @since 0.1.0
 * @category schemas
 */
export const VariableValue = Schema.Struct({
  title: Schema.String,
  name: Schema.String,
  value: Schema.String
}).annotations({ identifier: "VariableValue" })

/**
 * The type {@link VariableValue} decodes to.
 *
 * @since 0.1.0
 * @category models
 */
export type VariableValue = typeof VariableValue.Type

/**
 * A community variable, one value for the whole community: an item of `globalVars/list`.
 *
 * @since 0.1.0
 * @category schemas
 */
export const CommunityVariable = Schema.Struct({
  id: CommunityVariableId,
  title: Schema.String,
  name: Schema.String,
  value: Schema.String,
  create_at: UnixSeconds
}).annotations({ identifier: "CommunityVariable" })

/**
 * The type {@link CommunityVariable} decodes to.
 *
 * @since 0.1.0
 * @category models
 */
export type CommunityVariable = typeof CommunityVariable.Type
