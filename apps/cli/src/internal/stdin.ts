import { Effect } from "effect"

/** Reads standard input up to the first line break or its end; the line without surrounding blanks. */
export const readFirstLine = (input: NodeJS.ReadableStream = process.stdin): Effect.Effect<string> =>
  Effect.async<string>((resume) => {
    let buffer = ""
    const finish = () => {
      input.removeListener("data", onData)
      input.removeListener("end", finish)
      input.removeListener("error", finish)
      input.pause()
      resume(Effect.succeed(buffer.split(/\r?\n/)[0].trim()))
    }
    const onData = (chunk: Buffer | string) => {
      buffer += chunk.toString()
      if (buffer.includes("\n")) finish()
    }
    input.on("data", onData)
    input.on("end", finish)
    input.on("error", finish)
    input.resume()
    return Effect.sync(() => {
      input.removeListener("data", onData)
      input.removeListener("end", finish)
      input.removeListener("error", finish)
      input.pause()
    })
  })
