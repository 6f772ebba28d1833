import suite from "../../../../tests/client-behaviour/scenarios/RedisCluster.js"
import { run } from "./support/Driver.js"

run(suite)
