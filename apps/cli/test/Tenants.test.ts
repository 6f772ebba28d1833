/**
 * The command line against one of the sandbox's tenants, by the base-URL prefix that clients taking
 * only a base URL use (`/_tenants/{name}/external-api/v2`): a world of its own, which neither the
 * sandbox's own world nor another tenant sees.
 */
import * as DemoFixture from "@community-api/server/DemoFixture"
import { describe, expect, it } from "@effect/vitest"
import * as ExitCode from "../src/ExitCode.js"
import * as InProcess from "./support/InProcess.js"
import { community, sandboxOnPort } from "./support/Sandbox.js"

const { tokens } = DemoFixture

describe("the sandbox's tenants", () => {
  const sandbox = sandboxOnPort()
  const tenant = (name: string) => {
    const base = new URL(sandbox.baseUrl())
    return {
      COMMUNITY_API_BASE_URL: `${base.origin}/_tenants/${name}${base.pathname}`,
      COMMUNITY_API_TOKEN: tokens.owner
    }
  }
  const variables = async (env: Record<string, string>) => {
    const listed = await InProcess.run(["vars", "list", ...community, "--json"], { env })
    expect(listed.code, listed.stderr).toBe(ExitCode.kinds.success.code)
    return listed.stdout
  }

  it("a tenant by its base-URL prefix: what the command creates there, the sandbox's world and another tenant do not see", async () => {
    const created = await InProcess.run(
      ["vars", "create", ...community, "--title", "Только в w1", "--name", "only_in_w1"],
      { env: tenant("w1") }
    )
    expect(created.code, created.stderr).toBe(ExitCode.kinds.success.code)
    expect(await variables(tenant("w1"))).toContain("only_in_w1")
    expect(await variables(tenant("w2"))).not.toContain("only_in_w1")
    expect(await variables(sandbox.env(tokens.owner))).not.toContain("only_in_w1")
    const me = await InProcess.run(["users", "me", "--json"], { env: tenant("w2") })
    expect(me.code, me.stderr).toBe(ExitCode.kinds.success.code)
    expect(JSON.parse(me.stdout)).toMatchObject({ user_id: DemoFixture.userIds.owner })
  })
})
