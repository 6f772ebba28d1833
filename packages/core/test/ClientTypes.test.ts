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
/** A line whose call gives a tuple naming the operation, and whose stream gives its parameters. */
interface Kinds extends ClientTypes.Kinds {
  readonly Any: Op<boolean>
  readonly Pageable: Op<true>
  readonly params: Extract<this["Op"], Op<boolean>>["params"]
  readonly result: ["result", this["Op"]]
  readonly items: ["items", this["Op"]]
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
    type Sections = ClientTypes.Sections<Contract, Kinds>
    expectTypeOf<ReturnType<Sections["bots"]["enable"]>>().toEqualTypeOf<["result", Op<false>]>()
    expectTypeOf<Parameters<Sections["bots"]["enable"]>>().toEqualTypeOf<[params: Op<false>["params"]]>()
    expectTypeOf<keyof Sections["users"]>().toEqualTypeOf<"me">()
    type Streams = ClientTypes.Streams<Contract, Kinds>
    expectTypeOf<keyof Streams["bots"]>().toEqualTypeOf<"get">()
    expectTypeOf<keyof Streams["users"]>().toEqualTypeOf<never>()
    expectTypeOf<ReturnType<Streams["bots"]["get"]>>().toEqualTypeOf<["items", Op<true>]>()
    expectTypeOf<Parameters<Streams["bots"]["get"]>>().toEqualTypeOf<[params: { readonly id: string }]>()
  })

  it("X1 C12 C13 execute, page and stream take any operation, a list operation, and a page's position", () => {
    type Methods = ClientTypes.Methods<Kinds, { readonly count: number; readonly offset: number }>
    expectTypeOf<ReturnType<Methods["execute"]>>().toEqualTypeOf<["result", Op<boolean>]>()
    expectTypeOf<Parameters<Methods["page"]>>().toEqualTypeOf<
      [op: Op<true>, params: { readonly id: string }, position?: { readonly count?: number; readonly offset?: number }]
    >()
    expectTypeOf<ReturnType<Methods["stream"]>>().toEqualTypeOf<["items", Op<true>]>()
  })
})
