import suite from "../../../../tests/client-behaviour/scenarios/Options.js"
import { run } from "./support/Driver.js"

run(suite)
