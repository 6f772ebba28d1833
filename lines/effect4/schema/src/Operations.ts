/**
 * Every operation of the API on the Effect 4 line, grouped by section, with lookups.
 *
 * @since 0.1.0
 */
import * as Core from "@community-api/core/Operations"
import * as Channel from "./Channel.js"
import * as Generated from "./generated/Sections.js"
import * as Ids from "./Ids.js"
import type * as Operation from "./Operation.js"

/**
 * Each section's operations, keyed by method (`Operations.bots.enable`).
 *
 * @since 0.1.0
 */
export * from "./generated/Sections.js"

/**
 * The fields that name a community, always together: its number and its channel.
 *
 * @since 0.1.0
 * @category schemas
 */
export const CommunityRef = { group_id: Ids.GroupId, channel: Channel.Channel }

/**
 * Every section, keyed by name, each with its operations keyed by method.
 *
 * @since 0.1.0
 * @category constants
 */
export const sections = Generated.sections

/**
 * The type of {@link sections}: each section's name with its operations, which the client's method
 * groups and the server's routes are made from.
 *
 * @since 0.1.0
 * @category models
 */
export type Sections = typeof sections

/**
 * A section name.
 *
 * @since 0.1.0
 * @category models
 */
export type SectionName = keyof Sections

/**
 * The sections' names, in the contract's order.
 *
 * @since 0.1.0
 * @category constants
 */
export const sectionNames: ReadonlyArray<SectionName> = Core.sectionNames

/**
 * The operations of one section.
 *
 * @since 0.1.0
 * @category utils
 */
export const inSection = (name: SectionName): ReadonlyArray<Operation.Any> =>
  Object.values(sections[name] as { readonly [method: string]: Operation.Any })

/**
 * Every operation, section by section.
 *
 * @since 0.1.0
 * @category constants
 */
export const all: ReadonlyArray<Operation.Any> = sectionNames.flatMap(inSection)

/**
 * The operations whose parameters and answers the contract shows.
 *
 * @since 0.1.0
 * @category constants
 */
export const documented: ReadonlyArray<Operation.Any> = all.filter((op) => op.documented)

/**
 * The operations the API lists without showing their parameters.
 *
 * @since 0.1.0
 * @category constants
 */
export const undocumented: ReadonlyArray<Operation.Any> = all.filter((op) => !op.documented)

/**
 * Every operation by its path, `section/method`.
 *
 * @since 0.1.0
 * @category constants
 */
export const byPath: ReadonlyMap<string, Operation.Any> = new Map(all.map((op) => [op.path, op]))

/**
 * Whether `name` is a section's name.
 *
 * @since 0.1.0
 * @category guards
 */
export const isSection: (name: string) => name is SectionName = Core.isSection
