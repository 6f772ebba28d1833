/** A real `redis-server` for the tests of a file (the kit's), on this line's runner. */
import { afterAll, beforeAll } from "vitest"
import * as Shared from "../../../../../tests/client-behaviour/src/RedisServer.js"

export const forTests = () => Shared.forTests({ afterAll, beforeAll })
