/**
 * A tracer that writes every span as text, for suites that check that nothing secret reaches a span:
 * its name when it starts; its name, attributes and events when it ends; the cause when it fails.
 */
import { Cause, Exit, Tracer } from "effect"

export const make = (written: Array<string>): Tracer.Tracer =>
  Tracer.make({
    span: (name, parent, context, links, startTime, kind) => {
      const attributes = new Map<string, unknown>()
      const events: Array<unknown> = []
      written.push(`span ${name}`)
      return {
        _tag: "Span",
        name,
        spanId: String(written.length),
        traceId: "trace",
        parent,
        context,
        status: { _tag: "Started", startTime },
        attributes,
        links,
        sampled: true,
        kind,
        end: (_endTime, exit) => {
          written.push(
            JSON.stringify({ name, attributes: [...attributes].map(([k, v]) => [k, String(v)]), events }),
            Exit.isFailure(exit) ? `span ${name} failed: ${Cause.pretty(exit.cause)}` : ""
          )
        },
        attribute: (key, value) => {
          attributes.set(key, value)
        },
        event: (eventName, _time, eventAttributes) => {
          events.push([eventName, eventAttributes])
        },
        addLinks: () => {}
      }
    },
    context: (f) => f()
  })
