/**
 * The `Variable` resources.
 *
 * Generated from `@community-api/schema` (the Effect 3 line) by its `scripts/effect4.ts`: do not edit;
 * run `pnpm --filter @community-api/schema effect4` after changing the contract.
 *
 * @since 0.1.0
 */
import { Schema } from "effect"
import * as Primitives from "../internal/primitives.js"
import * as Wire from "@community-api/core/Wire"

/**
 * `CommunityVariable`, as `@community-api/schema/Variable` declares it.
 *
 * @since 0.1.0
 * @category schemas
 */
export const CommunityVariable = Schema.Struct({
  id: Primitives.CommunityVariableId,
  title: Schema.String,
  name: Schema.String,
  value: Schema.String,
  create_at: Primitives.UnixSeconds
}).annotate({ identifier: "CommunityVariable" })

/**
 * The decoded `CommunityVariable`.
 *
 * @since 0.1.0
 * @category models
 */
export type CommunityVariable = typeof CommunityVariable.Type

/**
 * `VariableDefinition`, as `@community-api/schema/Variable` declares it.
 *
 * @since 0.1.0
 * @category schemas
 */
export const VariableDefinition = Schema.Struct({
  id: Primitives.VariableId,
  title: Schema.String,
  name: Schema.String,
  create_at: Primitives.UnixSeconds
}).annotate({ identifier: "VariableDefinition" })

/**
 * The decoded `VariableDefinition`.
 *
 * @since 0.1.0
 * @category models
 */
export type VariableDefinition = typeof VariableDefinition.Type

/**
 * `VariableName`, as `@community-api/schema/Variable` declares it.
 *
 * @since 0.1.0
 * @category schemas
 */
export const VariableName = Primitives.VariableName

/**
 * The decoded `VariableName`.
 *
 * @since 0.1.0
 * @category models
 */
export type VariableName = typeof VariableName.Type

/**
 * `VariableTitle`, as `@community-api/schema/Variable` declares it.
 *
 * @since 0.1.0
 * @category schemas
 */
export const VariableTitle = Primitives.VariableTitle

/**
 * The decoded `VariableTitle`.
 *
 * @since 0.1.0
 * @category models
 */
export type VariableTitle = typeof VariableTitle.Type

/**
 * `VariableValue`, as `@community-api/schema/Variable` declares it.
 *
 * @since 0.1.0
 * @category schemas
 */
export const VariableValue = Schema.Struct({
  title: Schema.String,
  name: Schema.String,
  value: Schema.String
}).annotate({ identifier: "VariableValue" })

/**
 * The decoded `VariableValue`.
 *
 * @since 0.1.0
 * @category models
 */
export type VariableValue = typeof VariableValue.Type

/**
 * `forbiddenInName`, as `@community-api/schema/Variable` exports it.
 *
 * @since 0.1.0
 * @category utils
 */
export const forbiddenInName = Wire.forbiddenInName

/**
 * `forbiddenNameCharacters`, as `@community-api/schema/Variable` exports it.
 *
 * @since 0.1.0
 * @category constants
 */
export const forbiddenNameCharacters = Wire.forbiddenNameCharacters

/**
 * `forbiddenNameSequence`, as `@community-api/schema/Variable` exports it.
 *
 * @since 0.1.0
 * @category constants
 */
export const forbiddenNameSequence = "_NAME" as const

/**
 * `maxTextLength`, as `@community-api/schema/Variable` exports it.
 *
 * @since 0.1.0
 * @category constants
 */
export const maxTextLength = 120 as const

/**
 * `maxValueLength`, as `@community-api/schema/Variable` exports it.
 *
 * @since 0.1.0
 * @category constants
 */
export const maxValueLength = 4096 as const
