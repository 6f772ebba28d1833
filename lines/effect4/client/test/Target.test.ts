import suite from "../../../../tests/client-behaviour/scenarios/Target.js"
import { run } from "./support/Driver.js"

run(suite)
