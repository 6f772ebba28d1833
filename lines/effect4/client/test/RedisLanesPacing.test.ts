import suite from "../../../../tests/client-behaviour/scenarios/RedisLanesPacing.js"
import { run } from "./support/Driver.js"

run(suite)
