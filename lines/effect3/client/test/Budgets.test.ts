import suite from "../../../../tests/client-behaviour/scenarios/Budgets.js"
import { run } from "./support/Driver.js"

run(suite)
