/**
 * A tracer that keeps every span, to read names, attributes and events back, and tells `onEnd` how
 * each one ended: the Effect 3 line's `RecordingTracer.ts`, on this line's `Tracer`.
 */
import { Layer, Tracer } from "effect"
import type { Context, Exit, Option } from "effect"

export interface Recorded {
  readonly name: string
  readonly attributes: Map<string, unknown>
  readonly events: Array<readonly [name: string, attributes: Record<string, unknown> | undefined]>
  readonly parent: Option.Option<Tracer.AnySpan>
}

export const make = (onEnd: (span: Recorded, exit: Exit.Exit<unknown, unknown>) => void = () => {}) => {
  const spans: Array<Recorded> = []
  const tracer = Tracer.make({
    span: (options) => {
      const recorded: Recorded = { name: options.name, attributes: new Map(), events: [], parent: options.parent }
      spans.push(recorded)
      let status: Tracer.SpanStatus = { _tag: "Started", startTime: options.startTime }
      const span: Tracer.Span = {
        _tag: "Span",
        name: options.name,
        spanId: String(spans.length),
        traceId: "trace",
        parent: options.parent,
        annotations: options.annotations as Context.Context<never>,
        get status() {
          return status
        },
        attributes: recorded.attributes,
        links: options.links,
        sampled: true,
        kind: options.kind,
        end: (endTime, exit) => {
          status = { _tag: "Ended", startTime: options.startTime, endTime, exit }
          onEnd(recorded, exit)
        },
        attribute: (key, value) => {
          recorded.attributes.set(key, value)
        },
        event: (name, _time, attributes) => {
          recorded.events.push([name, attributes])
        },
        addLinks: () => {}
      }
      return span
    }
  })
  return { spans, tracer, layer: Layer.succeed(Tracer.Tracer, tracer) }
}
