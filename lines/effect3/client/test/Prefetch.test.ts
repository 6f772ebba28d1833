import suite from "../../../../tests/client-behaviour/scenarios/Prefetch.js"
import { run } from "./support/Driver.js"

run(suite)
