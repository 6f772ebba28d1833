import suite from "../../../../tests/client-behaviour/scenarios/Lanes.js"
import { run } from "./support/Driver.js"

run(suite)
