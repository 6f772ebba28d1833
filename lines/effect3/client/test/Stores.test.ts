import suite from "../../../../tests/client-behaviour/scenarios/Stores.js"
import { run } from "./support/Driver.js"

run(suite)
