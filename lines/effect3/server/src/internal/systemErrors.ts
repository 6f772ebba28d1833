/**
 * A system error (a port that cannot be bound, a file that cannot be read) in plain words, without
 * Node.js's `Error: ENOENT: …, open '…'` wording: the line that reports it names the file or the
 * address itself.
 *
 * @internal
 */
import { Predicate } from "effect"

const causes: Readonly<Record<string, string>> = {
  EADDRINUSE: "already in use",
  EACCES: "permission denied",
  EPERM: "permission denied",
  EADDRNOTAVAIL: "not an address of this machine",
  ENOTFOUND: "unknown host",
  EAI_AGAIN: "unknown host",
  ENOENT: "no such file",
  ENOTDIR: "no such file",
  EISDIR: "a folder, not a file"
}

/** What went wrong: plain words for a known code, else the code, else the error's own message. */
export const plainCause = (error: unknown): string => {
  const code = Predicate.hasProperty(error, "code") && typeof error.code === "string" ? error.code : undefined
  if (code !== undefined) return Object.hasOwn(causes, code) ? causes[code]! : code
  return error instanceof Error ? error.message : String(error)
}
