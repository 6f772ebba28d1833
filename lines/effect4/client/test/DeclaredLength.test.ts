import suite from "../../../../tests/client-behaviour/scenarios/DeclaredLength.js"
import { run } from "./support/Driver.js"

run(suite)
