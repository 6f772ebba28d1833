import suite from "../../../../tests/client-behaviour/scenarios/RedisLease.js"
import { run } from "./support/Driver.js"

run(suite)
