import suite from "../../../../tests/client-behaviour/scenarios/Timers.js"
import { run } from "./support/Driver.js"

run(suite)
