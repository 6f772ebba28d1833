import suite from "../../../../tests/client-behaviour/scenarios/PacingLatency.js"
import { run } from "./support/Driver.js"

run(suite)
