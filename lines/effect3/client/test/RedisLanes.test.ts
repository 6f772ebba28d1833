import suite from "../../../../tests/client-behaviour/scenarios/RedisLanes.js"
import { run } from "./support/Driver.js"

run(suite)
