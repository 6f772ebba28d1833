import suite from "../../../../tests/client-behaviour/scenarios/Faults.js"
import { run } from "./support/Driver.js"

run(suite)
