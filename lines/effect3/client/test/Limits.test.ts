import suite from "../../../../tests/client-behaviour/scenarios/Limits.js"
import { run } from "./support/Driver.js"

run(suite)
