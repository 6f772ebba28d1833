import suite from "../../../../tests/client-behaviour/scenarios/Config.js"
import { run } from "./support/Driver.js"

run(suite)
