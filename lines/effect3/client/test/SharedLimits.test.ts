import suite from "../../../../tests/client-behaviour/scenarios/SharedLimits.js"
import { run } from "./support/Driver.js"

run(suite)
