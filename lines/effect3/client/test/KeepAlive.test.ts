import suite from "../../../../tests/client-behaviour/scenarios/KeepAlive.js"
import { run } from "./support/Driver.js"

run(suite)
