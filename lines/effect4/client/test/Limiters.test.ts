import suite from "../../../../tests/client-behaviour/scenarios/Limiters.js"
import { run } from "./support/Driver.js"

run(suite)
