/**
 * `community-api record --out FILE`: the account of the token read into a fixture that the sandbox
 * replays with `--fixture`. Here is what the parser and the help need (the name, the flags, the
 * texts); the work itself is `Recording`, loaded only when the command runs, since it brings the
 * sandbox's fixture schema.
 *
 * @since 0.1.0
 */
import { Effect } from "effect"
import type * as Flags from "./Flags.js"
import type * as Recording from "./Recording.js"

/**
 * The command's name.
 *
 * @since 0.1.0
 */
export const name = "record"

/**
 * The seed of the made-up data and of the sandbox token when `--seed` is not given.
 *
 * @since 0.1.0
 */
export const defaultSeed = 1

/**
 * A flag of `record`, as its help shows it.
 *
 * @since 0.1.0
 */
export type Flag = Flags.CommandFlag

/**
 * The flags of `record` besides `--token-stdin` and `--retries`, which every command that calls the
 * API has.
 *
 * @since 0.1.0
 */
export const flags = {
  out: {
    name: "out",
    typeName: "FILE",
    optional: false,
    description: "The file to write the fixture to (required)"
  },
  keepPersonalData: {
    name: "keep-personal-data",
    optional: true,
    description: "Keep names, phone numbers, e-mail addresses and texts as they were read, instead of made-up " +
      "ones of the same shape."
  },
  seed: {
    name: "seed",
    typeName: "N",
    optional: true,
    description: "The seed of the made-up data and of the sandbox token: the same account and the same seed give " +
      `the same file; default ${defaultSeed}.`
  },
  maxSubscribers: {
    name: "max-subscribers",
    typeName: "N",
    optional: true,
    description: "Read the bots and the variable values of at most N subscribers of each community (the lowest " +
      "ids), for a large account; the others are recorded as subscribers only. Default: every subscriber."
  }
} as const satisfies Record<string, Flag>

/**
 * What `record` does, in one line.
 *
 * @since 0.1.0
 */
export const summary = "Record the account of the token into a fixture file that the sandbox replays with " +
  "--fixture, with read operations only."

/**
 * What `record` reads, what it makes up and where the sandbox token comes from, for its help.
 *
 * @since 0.1.0
 */
export const description = "Reads, through the client and paced under the request limit, what the account may " +
  "read: its communities, their employees, bots with their details, mailings, lists and their subscribers, the " +
  "bots each subscriber is in, variables and their values, community variables and landings. Only operations " +
  "that change nothing are sent. Names, phone numbers, e-mail addresses and free text are replaced by made-up " +
  "ones of the same shape (the same text always gets the same fake), unless --keep-personal-data; ids, counts, " +
  "flags, times and every relation are kept. The real token is never written: the file gives the account a " +
  "sandbox token of its own, printed once at the end; the same seed gives the same token. What no read shows is " +
  "filled in so that every read answers the same: the owner of a community the account does not own, the " +
  "account's roles where it may not list the employees, and the order of communities and employees. The " +
  "blacklist and the subscribers that are in no list cannot be read, so they are not recorded. While it runs, a " +
  "progress bar of the reads is drawn on standard error when it is a terminal."

/**
 * Records the account into a file (see `Recording.record`) on the client `provide` gives, the work
 * loaded when it runs.
 *
 * @since 0.1.0
 */
export const run = (options: Recording.Options, provide: Recording.Provide): Effect.Effect<void, unknown> =>
  Effect.flatMap(Effect.promise(() => import("./Recording.js")), (module) => module.record(options, provide))
