/**
 * Draws `pacing.svg`: one panel per run of B2 (a latency of the server and a strategy), requests
 * answered per 100 ms (ok stacked with error 5), the limit (30 per 1000 ms, drawn as 3 per 100 ms) and
 * the trailing-second count divided by 10 on the same scale, which must stay at or under the limit line.
 */

/** The requests of one strategy, per 100 ms bucket. */
export interface Series {
  readonly name: string
  readonly label: string
  readonly okPer100ms: ReadonlyArray<number>
  readonly error5Per100ms: ReadonlyArray<number>
}

const width = 1000
const left = 50
const right = 20
const panelHeight = 170
const top = 40
const gap = 40
const yMax = 8
const limitPer100ms = 3

const escape = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")

const panel = (series: Series, index: number): string => {
  const y0 = top + index * (panelHeight + gap)
  const n = series.okPer100ms.length
  const step = (width - left - right) / n
  const y = (value: number) => y0 + panelHeight - (Math.min(value, yMax) / yMax) * panelHeight
  const parts: Array<string> = []
  parts.push(
    `<text x="${left}" y="${y0 - 8}" font-size="13" font-weight="bold">${escape(series.label)}</text>`,
    `<rect x="${left}" y="${y0}" width="${width - left - right}" height="${panelHeight}" fill="none" stroke="#ccc"/>`
  )
  for (let v = 0; v <= yMax; v += 2) {
    parts.push(`<text x="${left - 6}" y="${y(v) + 4}" font-size="10" text-anchor="end">${v}</text>`)
  }
  for (let i = 0; i < n; i++) {
    const ok = series.okPer100ms[i]!
    const five = series.error5Per100ms[i]!
    const x = left + i * step
    if (ok > 0) {
      parts.push(
        `<rect x="${x.toFixed(1)}" y="${y(ok).toFixed(1)}" width="${(step - 0.5).toFixed(1)}" height="${
          (y0 + panelHeight - y(ok)).toFixed(1)
        }" fill="#4c78a8"/>`
      )
    }
    if (five > 0) {
      const base = y(ok)
      const topOf = y(ok + five)
      parts.push(
        `<rect x="${x.toFixed(1)}" y="${topOf.toFixed(1)}" width="${(step - 0.5).toFixed(1)}" height="${
          (base - topOf).toFixed(1)
        }" fill="#e45756"/>`
      )
    }
    if (ok + five > yMax) {
      parts.push(
        `<text x="${(x + step / 2).toFixed(1)}" y="${y0 + 10}" font-size="8" text-anchor="middle">${ok + five}</text>`
      )
    }
  }
  // The trailing second, on the per-100-ms scale.
  const points: Array<string> = []
  for (let i = 0; i < n; i++) {
    let sum = 0
    for (let k = Math.max(0, i - 9); k <= i; k++) sum += series.okPer100ms[k]!
    points.push(`${(left + (i + 1) * step).toFixed(1)},${y(sum / 10).toFixed(1)}`)
  }
  parts.push(
    `<polyline points="${points.join(" ")}" fill="none" stroke="#222" stroke-width="1.2"/>`,
    `<line x1="${left}" x2="${width - right}" y1="${y(limitPer100ms)}" y2="${
      y(limitPer100ms)
    }" stroke="#d62728" stroke-dasharray="6 4" stroke-width="1.5"/>`
  )
  for (let s = 0; s <= n / 10; s += 2) {
    parts.push(
      `<text x="${left + s * 10 * step}" y="${y0 + panelHeight + 14}" font-size="10" text-anchor="middle">${s} s</text>`
    )
  }
  return parts.join("\n")
}

/** The whole chart as SVG text. */
export const pacingChart = (series: ReadonlyArray<Series>): string => {
  const height = top + series.length * (panelHeight + gap) + 20
  const legend = [
    `<text x="${left}" y="18" font-size="12">B2: requests answered per 100 ms, one user, 16 fibers, by server latency. ` +
    `Blue: ok; red: error 5; black line: ok in the trailing 1000 ms ÷ 10; ` +
    `dashed red: the limit, 30 per 1000 ms (3 per 100 ms).</text>`
  ]
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" ` +
    `font-family="sans-serif">`,
    `<rect width="100%" height="100%" fill="white"/>`,
    ...legend,
    ...series.map(panel),
    "</svg>",
    ""
  ].join("\n")
}
