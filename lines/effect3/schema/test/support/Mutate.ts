/**
 * Wrong values for differential decoding tests: one value replaced somewhere in a valid JSON value.
 */

/** Replaces the value at one place of a JSON value (the value itself, a field or an item), picked by `pick`. */
export const mutated = (value: unknown, junk: unknown, pick: number): unknown => {
  const places: Array<(replacement: unknown) => unknown> = [() => junk]
  const walk = (node: unknown, rebuild: (node: unknown) => unknown): void => {
    if (typeof node !== "object" || node === null) return
    for (const key of Object.keys(node)) {
      const child = (node as Record<string, unknown>)[key]
      const at = (replacement: unknown) =>
        rebuild(
          Array.isArray(node)
            ? node.map((v, i) => String(i) === key ? replacement : v)
            : { ...node, [key]: replacement }
        )
      places.push(() => at(junk))
      walk(child, at)
    }
  }
  walk(value, (node) => node)
  return places[pick % places.length]!(junk)
}

/** Values that are wrong for most fields (and right for a few, which keeps the comparison honest). */
export const junkValues: ReadonlyArray<unknown> = [
  null,
  undefined,
  0,
  1.5,
  -1,
  Number.NaN,
  "",
  "vk",
  "12",
  "0123456789abcdef01234567",
  [],
  {},
  true
]
