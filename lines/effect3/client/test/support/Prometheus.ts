/**
 * A real Prometheus endpoint of Effect's metrics (`@effect/opentelemetry` over the OpenTelemetry
 * Prometheus exporter), as `docs/client.md` shows it; the scenarios read it with
 * `tests/client-behaviour/src/Prometheus.ts`.
 */
import * as OtelMetrics from "@effect/opentelemetry/Metrics"
import * as Resource from "@effect/opentelemetry/Resource"
import { PrometheusExporter } from "@opentelemetry/exporter-prometheus"
import { Layer } from "effect"

/** The exporter as the docs build it, on `port` of the loopback (it starts listening on its own). */
export const layer = (port: number) =>
  OtelMetrics.layer(() => new PrometheusExporter({ host: "127.0.0.1", port })).pipe(
    Layer.provide(Resource.layer({ serviceName: "metrics-test" }))
  )
