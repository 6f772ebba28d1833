import suite from "../../../../tests/client-behaviour/scenarios/Unreachable.js"
import { run } from "./support/Driver.js"

run(suite)
