/**
 * What the list of tools costs an assistant: `tools/list`'s answer in characters of JSON, and in
 * tokens by an estimate, for the full surface, `--read-only` and `--compact`.
 *
 * The estimate is one token per four characters, rounded up: the usual rule of thumb for English
 * text and JSON with tokenizers of the GPT and Claude families. The exact count depends on the model's
 * tokenizer (JSON punctuation and Russian text cost more per character), so the characters are the
 * measure and the tokens a guide.
 *
 * @since 0.1.0
 */
import * as Options from "./Options.js"
import * as Surface from "./Surface.js"

/**
 * The size of a `tools/list` answer.
 *
 * @since 0.1.0
 * @category models
 */
export interface Size {
  /** Characters of `JSON.stringify({tools})`, the `result` of `tools/list`. */
  readonly chars: number
  /** Estimated tokens: {@link charsPerToken} characters a token, rounded up. */
  readonly tokens: number
}

/**
 * Characters a token, for the estimate.
 *
 * @since 0.1.0
 * @category constants
 */
export const charsPerToken = 4

/**
 * The size of `tools/list`'s answer with `tools`.
 *
 * @since 0.1.0
 * @category utils
 */
export const toolsListSize = (tools: ReadonlyArray<Surface.Offered>): Size => {
  const chars = JSON.stringify({ tools: tools.map((tool) => tool.definition) }).length
  return { chars, tokens: Math.ceil(chars / charsPerToken) }
}

/**
 * The surfaces measured, with the flags that give each.
 *
 * @since 0.1.0
 * @category constants
 */
export const surfaces: ReadonlyArray<{ readonly flags: string; readonly surface: Options.Surface }> = [
  { flags: "none (every tool)", surface: Surface.full },
  { flags: "`--read-only`", surface: { ...Surface.full, readOnly: true } },
  { flags: "`--compact`", surface: { ...Surface.full, compact: true } },
  { flags: "`--compact --read-only`", surface: { ...Surface.full, compact: true, readOnly: true } }
]

/**
 * The size of each of {@link surfaces}.
 *
 * @since 0.1.0
 * @category utils
 */
export const measure = (): ReadonlyArray<{ readonly flags: string; readonly tools: number } & Size> =>
  surfaces.map(({ flags, surface }) => {
    const tools = Surface.offered(surface)
    return { flags, tools: tools.length, ...toolsListSize(tools) }
  })

/** `52345` as `52,345`, whatever the process's locale. */
const thousands = (n: number): string => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",")

/**
 * The sizes as a Markdown table, for `docs/mcp.md` (a test keeps it equal).
 *
 * @since 0.1.0
 * @category utils
 */
export const markdown = (): string => {
  const rows = measure()
  const full = rows[0]!.chars
  return [
    "| Flags | Tools | Characters | Tokens (estimate) | Of full |",
    "|---|---:|---:|---:|---:|",
    ...rows.map((row) =>
      `| ${row.flags} | ${row.tools} | ${thousands(row.chars)} | ${thousands(row.tokens)} | ` +
      `${Math.round((row.chars / full) * 100)}% |`
    )
  ].join("\n")
}
