/**
 * The request of a call and the words of its failures (`CallRequest`), as both lines send it.
 */
import { describe, expect, it } from "vitest"
import * as CallRequest from "../src/CallRequest.js"
import { closedPort, fetchError } from "./support/Connections.js"

describe("CallRequest", () => {
  it("A1 A2 the path below the base URL, and the token as api_key in the body only in body mode", () => {
    expect(CallRequest.urlOf("bots/enable")).toBe("/bots/enable")
    expect(CallRequest.tokenInBody("body")).toBe(true)
    expect(CallRequest.tokenInBody("header")).toBe(false)
    expect(CallRequest.tokenInBody(undefined)).toBe(false)
    expect(CallRequest.bodyOf({ bot_id: "b" }, undefined)).toEqual({ bot_id: "b" })
    expect(CallRequest.bodyOf({ bot_id: "b" }, "secret")).toEqual({ bot_id: "b", api_key: "secret" })
    // Anything but an object sends no field.
    expect(CallRequest.bodyOf(["a"], undefined)).toEqual({})
    expect(CallRequest.bodyOf(null, "secret")).toEqual({ api_key: "secret" })
  })

  it("C4 A1 only 200 carries an envelope; a redirect is named, never followed", () => {
    expect(CallRequest.isAccepted(200)).toBe(true)
    expect(CallRequest.isAccepted(204)).toBe(false)
    expect(CallRequest.isRedirect(302)).toBe(true)
    expect(CallRequest.isRedirect(400)).toBe(false)
    expect(CallRequest.statusReason(307)).toBe("redirect not followed: HTTP status 307")
    expect(CallRequest.statusReason(502)).toBe("HTTP status 502")
  })

  it("X1 a transport failure names the platform's reason, its description and the socket's error", () => {
    expect(CallRequest.transportReason("Transport", undefined, new Error("ECONNRESET"))).toBe("Transport: ECONNRESET")
    expect(CallRequest.transportReason("Transport", "POST http://h/x", "not an error")).toBe(
      "Transport: POST http://h/x"
    )
  })

  it("a failed connection is read from its cause, of the URL only its host and port; any other keeps its words", async () => {
    const port = await closedPort()
    const url = `http://127.0.0.1:${port}/external-api/v2/bots/get?api_key=secret`
    for (const platformReason of CallRequest.connectionReasons) {
      expect(CallRequest.transportFailure(platformReason, undefined, await fetchError(url), url)).toEqual({
        reason: `connection refused by 127.0.0.1:${port} (ECONNREFUSED)`,
        code: "ECONNREFUSED",
        host: "127.0.0.1",
        port
      })
    }
    expect(CallRequest.transportFailure("Encode", undefined, new Error("cyclic"), url)).toEqual({
      reason: "Encode: cyclic"
    })
  })
})
