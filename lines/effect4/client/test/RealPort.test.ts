import suite from "../../../../tests/client-behaviour/scenarios/RealPort.js"
import { run } from "./support/Driver.js"

run(suite)
