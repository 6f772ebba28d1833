import suite from "../../../../tests/client-behaviour/scenarios/CreationQuota.js"
import { run } from "./support/Driver.js"

run(suite)
