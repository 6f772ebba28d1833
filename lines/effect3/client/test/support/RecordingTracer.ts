/** A tracer that keeps every span, to read names, attributes and events back, and tells `onEnd` how each one ended. */
import type { Exit, Option } from "effect"
import { Layer, Tracer } from "effect"
import * as Lines from "../../../../../tests/client-behaviour/src/Lines.js"

export type Recorded = Lines.Recorded<Option.Option<Tracer.AnySpan>>

export const make = (onEnd: (span: Recorded, exit: Exit.Exit<unknown, unknown>) => void = () => {}) => {
  const spans: Array<Recorded> = []
  const tracer = Tracer.make({
    span: (name, parent, context, links, startTime, kind) => {
      const recorded: Recorded = { name, attributes: new Map(), events: [], parent }
      return {
        ...Lines.recordingSpan(recorded, spans),
        context,
        status: { _tag: "Started", startTime },
        links,
        kind,
        end: (_endTime, exit) => onEnd(recorded, exit)
      }
    },
    context: (f) => f()
  })
  return { spans, tracer, layer: Layer.setTracer(tracer) }
}
