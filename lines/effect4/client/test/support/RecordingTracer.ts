/**
 * A tracer that keeps every span, to read names, attributes and events back, and tells `onEnd` how
 * each one ended: the Effect 3 line's `RecordingTracer.ts`, on this line's `Tracer`.
 */
import { Layer, Tracer } from "effect"
import type { Context, Exit, Option } from "effect"
import * as Lines from "../../../../../tests/client-behaviour/src/Lines.js"

export type Recorded = Lines.Recorded<Option.Option<Tracer.AnySpan>>

export const make = (onEnd: (span: Recorded, exit: Exit.Exit<unknown, unknown>) => void = () => {}) => {
  const spans: Array<Recorded> = []
  const tracer = Tracer.make({
    span: (options) => {
      const recorded: Recorded = { name: options.name, attributes: new Map(), events: [], parent: options.parent }
      let status: Tracer.SpanStatus = { _tag: "Started", startTime: options.startTime }
      const span: Tracer.Span = {
        ...Lines.recordingSpan(recorded, spans),
        annotations: options.annotations as Context.Context<never>,
        get status() {
          return status
        },
        links: options.links,
        kind: options.kind,
        end: (endTime, exit) => {
          status = { _tag: "Ended", startTime: options.startTime, endTime, exit }
          onEnd(recorded, exit)
        }
      }
      return span
    }
  })
  return { spans, tracer, layer: Layer.succeed(Tracer.Tracer, tracer) }
}
