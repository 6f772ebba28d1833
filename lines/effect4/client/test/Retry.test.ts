import suite from "../../../../tests/client-behaviour/scenarios/Retry.js"
import { run } from "./support/Driver.js"

run(suite)
