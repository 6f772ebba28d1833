import suite from "../../../../tests/client-behaviour/scenarios/Paginate.js"
import { run } from "./support/Driver.js"

run(suite)
