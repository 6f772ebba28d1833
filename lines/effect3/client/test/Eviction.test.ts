import suite from "../../../../tests/client-behaviour/scenarios/Eviction.js"
import { run } from "./support/Driver.js"

run(suite)
