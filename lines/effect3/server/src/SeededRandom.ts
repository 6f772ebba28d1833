/**
 * A small seeded generator of numbers in [0, 1) (mulberry32): the same seed gives the same sequence, so
 * a run that draws from it (fault probabilities, random latency, the soak run's load) can be repeated.
 * Not for anything that must be unpredictable. It lives in the core, so that both Effect lines draw
 * the same faults from the same seed.
 *
 * @since 0.1.0
 */
/**
 * @since 0.1.0
 */
export * from "@community-api/core/SeededRandom"
