import suite from "../../../../tests/client-behaviour/scenarios/Pacing.js"
import { run } from "./support/Driver.js"

run(suite)
