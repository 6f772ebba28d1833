/**
 * A tracer that keeps every span, to read names, attributes and events back, and tells `onEnd` how
 * each one ended.
 */
import type { Exit, Option } from "effect"
import { Layer, Tracer } from "effect"

export interface Recorded {
  readonly name: string
  readonly attributes: Map<string, unknown>
  readonly events: Array<readonly [name: string, attributes: Record<string, unknown> | undefined]>
  readonly parent: Option.Option<Tracer.AnySpan>
}

export const make = (onEnd: (span: Recorded, exit: Exit.Exit<unknown, unknown>) => void = () => {}) => {
  const spans: Array<Recorded> = []
  const tracer = Tracer.make({
    span: (name, parent, context, links, startTime, kind) => {
      const recorded: Recorded = { name, attributes: new Map(), events: [], parent }
      spans.push(recorded)
      return {
        _tag: "Span",
        name,
        spanId: String(spans.length),
        traceId: "trace",
        parent,
        context,
        status: { _tag: "Started", startTime },
        attributes: recorded.attributes,
        links,
        sampled: true,
        kind,
        end: (_endTime, exit) => onEnd(recorded, exit),
        attribute: (key, value) => {
          recorded.attributes.set(key, value)
        },
        event: (name, _time, attributes) => {
          recorded.events.push([name, attributes])
        },
        addLinks: () => {}
      }
    },
    context: (f) => f()
  })
  return { spans, tracer, layer: Layer.setTracer(tracer) }
}
