import suite from "../../../../tests/client-behaviour/scenarios/Metrics.js"
import { run } from "./support/Driver.js"

run(suite)
