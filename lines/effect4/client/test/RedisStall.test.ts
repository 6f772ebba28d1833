import suite from "../../../../tests/client-behaviour/scenarios/RedisStall.js"
import { run } from "./support/Driver.js"

run(suite)
