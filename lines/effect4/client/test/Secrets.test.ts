import suite from "../../../../tests/client-behaviour/scenarios/Secrets.js"
import { run } from "./support/Driver.js"

run(suite)
