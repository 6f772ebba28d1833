/**
 * A reader of a real Prometheus endpoint (a world's `prometheusPort`), with no Effect: a free loopback
 * port for it, a scrape of the text exposition format and the value of one series.
 */
import * as Net from "node:net"

/** A loopback port free a moment ago. */
export const freePort = (): Promise<number> =>
  new Promise((resolve) => {
    const server = Net.createServer()
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      const port = typeof address === "object" && address !== null ? address.port : 0
      server.close(() => resolve(port))
    })
  })

/** One line of the exposition: a series' name, its labels and its value. */
export interface Sample {
  readonly name: string
  readonly labels: Readonly<Record<string, string>>
  readonly value: number
}

const parseLabels = (text: string): Record<string, string> =>
  Object.fromEntries([...text.matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1]!, m[2]!]))

/** Reads the text exposition format. */
export const parse = (text: string): ReadonlyArray<Sample> =>
  text.split("\n").flatMap((line) => {
    if (line.startsWith("#") || line.trim() === "") return []
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)/.exec(line)
    return match === null ? [] : [{ name: match[1]!, labels: parseLabels(match[2] ?? ""), value: Number(match[3]) }]
  })

/** What the endpoint on `port` serves now. */
export const scrape = async (port: number): Promise<ReadonlyArray<Sample>> => {
  // The exporter starts listening a moment after it is made: its first scrape may find the port
  // still closed. Bounded: 10 s of a busy machine.
  for (let attempt = 0;; attempt++) {
    try {
      const response = await fetch(`http://127.0.0.1:${port}/metrics`)
      if (response.status !== 200) throw new Error(`scrape: status ${response.status}`)
      return parse(await response.text())
    } catch (error) {
      if (attempt >= 100) throw error
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }
}

/** The series named `name` whose labels include `labels`. */
const matching = (
  samples: ReadonlyArray<Sample>,
  name: string,
  labels: Readonly<Record<string, string>>
): ReadonlyArray<Sample> =>
  samples.filter((sample) =>
    sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value)
  )

/** Whether a series named `name` whose labels include `labels` is served (at any value, zero too). */
export const serves = (
  samples: ReadonlyArray<Sample>,
  name: string,
  labels: Readonly<Record<string, string>> = {}
): boolean => matching(samples, name, labels).length > 0

/** The value of the one series named `name` whose labels include `labels`; 0 when none is served. */
export const valueOf = (
  samples: ReadonlyArray<Sample>,
  name: string,
  labels: Readonly<Record<string, string>> = {}
): number => {
  const found = matching(samples, name, labels)
  if (found.length > 1) throw new Error(`${name} ${JSON.stringify(labels)}: ${found.length} series`)
  return found[0]?.value ?? 0
}
