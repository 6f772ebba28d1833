import { describe, it } from "@effect/vitest"
import suite from "../../../../tests/client-behaviour/scenarios/RedisStore.js"
import { register } from "../../../../tests/client-behaviour/src/Scenario.js"
import { line } from "./support/Driver.js"

register(suite, line, { describe, it })
