/**
 * The types of a client's methods (`ClientTypes`): the client's own errors by the operation's flags, a
 * method's parameters, and the tables by section and list operation.
 */
import { describe, expectTypeOf, it } from "vitest"
import type * as ClientTypes from "../src/ClientTypes.js"

type Own = "transport" | "quota" | "unknown"
type Flags<Creation extends boolean, Safe extends boolean> = {
  readonly creation: Creation
  readonly safeToRepeat: Safe
}

interface Op<Pageable extends boolean> {
  readonly pageable: Pageable
  readonly params: { readonly id: string; readonly count?: number; readonly offset?: number }
}
interface Contract {
  readonly bots: { readonly get: Op<true>; readonly enable: Op<false> }
  readonly users: { readonly me: Op<false> }
}
interface Named extends ClientTypes.OfOperation {
  readonly type: ["method", this["Op"]]
}

describe("ClientTypes", () => {
  it("L2 X1 only creations can fail on the quota, and only operations unsafe to repeat with an unknown outcome", () => {
    expectTypeOf<ClientTypes.OwnErrors<Flags<false, true>, Own, "quota", "unknown">>().toEqualTypeOf<"transport">()
    expectTypeOf<ClientTypes.OwnErrors<Flags<false, false>, Own, "quota", "unknown">>().toEqualTypeOf<
      "transport" | "unknown"
    >()
    // A creation is never safe to repeat, whatever its flag says.
    expectTypeOf<ClientTypes.OwnErrors<Flags<true, true>, Own, "quota", "unknown">>().toEqualTypeOf<Own>()
    expectTypeOf<ClientTypes.OwnErrors<Flags<boolean, boolean>, Own, "quota", "unknown">>().toEqualTypeOf<Own>()
  })

  it("E1 a method's parameters may be left out only when none is required", () => {
    expectTypeOf<Parameters<ClientTypes.Method<{ readonly a?: number }, "r">>>().toEqualTypeOf<
      [params?: { readonly a?: number }]
    >()
    expectTypeOf<Parameters<ClientTypes.Method<{ readonly a: number }, "r">>>().toEqualTypeOf<
      [params: { readonly a: number }]
    >()
    expectTypeOf<ReturnType<ClientTypes.Method<{}, "r">>>().toEqualTypeOf<"r">()
    expectTypeOf<ClientTypes.ListParams<Op<true>["params"]>>().toEqualTypeOf<{ readonly id: string }>()
  })

  it("X1 C12 a method per operation by section, a stream per list operation only", () => {
    type Sections = ClientTypes.Sections<Contract, Op<boolean>, Named>
    expectTypeOf<Sections["bots"]["enable"]>().toEqualTypeOf<["method", Op<false>]>()
    expectTypeOf<keyof Sections["users"]>().toEqualTypeOf<"me">()
    type Streams = ClientTypes.Streams<Contract, Op<true>, Named>
    expectTypeOf<keyof Streams["bots"]>().toEqualTypeOf<"get">()
    expectTypeOf<keyof Streams["users"]>().toEqualTypeOf<never>()
    expectTypeOf<Streams["bots"]["get"]>().toEqualTypeOf<["method", Op<true>]>()
  })
})
