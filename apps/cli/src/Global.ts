/**
 * The flags of the command line as a whole, accepted before or after any command (`serve` too):
 * `--log-level`, `--help`, `--version`, and `@effect/cli`'s `--completions` and `--wizard`. They are
 * described once, in the top-level help.
 *
 * @since 0.1.0
 */
import { Either, LogLevel, Option } from "effect"
import { orList, quote } from "./internal/text.js"
import { UsageError } from "./UsageError.js"

/**
 * A global flag, as the help shows it.
 *
 * @since 0.1.0
 */
export interface GlobalFlag {
  readonly name: string
  /** Another spelling (`-h`). */
  readonly alias?: string
  /** The value it takes, for the usage line; absent for a switch. */
  readonly typeName?: string
  readonly description: string
}

/**
 * The log levels, least first, as Effect orders them.
 *
 * @since 0.1.0
 */
export const levels: ReadonlyArray<LogLevel.LogLevel> = [...LogLevel.allLevels].sort((a, b) => a.ordinal - b.ordinal)

/**
 * A level as the flag spells it: `warning`.
 *
 * @since 0.1.0
 */
export const levelName = (level: LogLevel.LogLevel): string => level._tag.toLowerCase()

const logLevel = "log-level"

/**
 * The global flags.
 *
 * @since 0.1.0
 */
export const flags: ReadonlyArray<GlobalFlag> = [
  {
    name: logLevel,
    typeName: "LEVEL",
    description: `Write the program's own log lines of this level and above to standard error: ` +
      `${orList(levels.map(levelName))}. May stand anywhere before --, also after a command's own flags.`
  },
  {
    name: "help",
    alias: "-h",
    description: "Print the help of what it follows: a section, an operation, call or serve."
  },
  { name: "version", description: "Print the version." },
  { name: "completions", typeName: "SHELL", description: "Print a completion script for sh, bash, fish or zsh." },
  { name: "wizard", description: "Build a command step by step, asked flag by flag." }
]

/**
 * The names of the global flags, without dashes.
 *
 * @since 0.1.0
 */
export const names: ReadonlyArray<string> = flags.map((flag) => flag.name)

/**
 * The words that ask for help.
 *
 * @since 0.1.0
 */
export const helpWords: ReadonlyArray<string> = flags.flatMap((flag) =>
  flag.name === "help" ? [`--${flag.name}`, ...(flag.alias === undefined ? [] : [flag.alias])] : []
)

/**
 * The words before `--`, where flags are read.
 *
 * @since 0.1.0
 */
export const flagWords = (words: ReadonlyArray<string>): ReadonlyArray<string> => {
  const end = words.indexOf("--")
  return end === -1 ? words : words.slice(0, end)
}

/**
 * Whether the words ask for help (before `--`).
 *
 * @since 0.1.0
 */
export const helpRequested = (words: ReadonlyArray<string>): boolean =>
  flagWords(words).some((word) => helpWords.includes(word))

/**
 * Takes `--log-level LEVEL` (or `--log-level=LEVEL`) out of the words, wherever it stands before
 * `--`: the level, and the other words in their order. An unknown or missing level is a usage error.
 *
 * @since 0.1.0
 */
export const takeLogLevel = (words: ReadonlyArray<string>): Either.Either<{
  readonly level: Option.Option<LogLevel.LogLevel>
  readonly rest: ReadonlyArray<string>
}, UsageError> => {
  const flag = `--${logLevel}`
  const rest: Array<string> = []
  let level = Option.none<LogLevel.LogLevel>()
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!
    if (word === "--") {
      rest.push(...words.slice(i))
      break
    }
    if (word !== flag && !word.startsWith(`${flag}=`)) {
      rest.push(word)
      continue
    }
    const value = word === flag ? words[++i] : word.slice(flag.length + 1)
    const allowed = orList(levels.map(levelName))
    if (value === undefined) return Either.left(new UsageError({ reason: `${flag} needs a level: ${allowed}` }))
    const found = levels.find((candidate) => levelName(candidate) === value.toLowerCase())
    if (found === undefined) {
      return Either.left(new UsageError({ reason: `${flag}: ${quote(value)} is not one of ${allowed}` }))
    }
    level = Option.some(found)
  }
  return Either.right({ level, rest })
}
