import suite from "../../../../tests/client-behaviour/scenarios/Redirects.js"
import { run } from "./support/Driver.js"

run(suite)
