import suite from "../../../../tests/client-behaviour/scenarios/HostileBodies.js"
import { run } from "./support/Driver.js"

run(suite)
