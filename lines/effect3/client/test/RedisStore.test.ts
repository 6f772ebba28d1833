import suite from "../../../../tests/client-behaviour/scenarios/RedisStore.js"
import { run } from "./support/Driver.js"

run(suite)
