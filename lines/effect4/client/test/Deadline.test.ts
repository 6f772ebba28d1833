import suite from "../../../../tests/client-behaviour/scenarios/Deadline.js"
import { run } from "./support/Driver.js"

run(suite)
