import suite from "../../../../tests/client-behaviour/scenarios/RateOrQuota.js"
import { run } from "./support/Driver.js"

run(suite)
