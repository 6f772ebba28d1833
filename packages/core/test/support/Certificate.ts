/**
 * A self-signed X.509 certificate for a TLS server in a test, made with `node:crypto` alone: a P-256
 * key and a version 1 certificate for `localhost`, DER written by hand.
 */
import * as crypto from "node:crypto"

const length = (n: number): Buffer =>
  n < 0x80 ? Buffer.from([n]) : n < 0x100 ? Buffer.from([0x81, n]) : Buffer.from([0x82, n >> 8, n & 0xff])

const der = (tag: number, ...parts: ReadonlyArray<Buffer>): Buffer => {
  const body = Buffer.concat(parts)
  return Buffer.concat([Buffer.from([tag]), length(body.length), body])
}

const sequence = (...parts: ReadonlyArray<Buffer>) => der(0x30, ...parts)

const oid = (dotted: string): Buffer => {
  const [a = 0, b = 0, ...rest] = dotted.split(".").map(Number)
  const bytes = [40 * a + b]
  for (const arc of rest) {
    const groups = [arc & 0x7f]
    for (let v = arc >> 7; v > 0; v >>= 7) groups.unshift((v & 0x7f) | 0x80)
    bytes.push(...groups)
  }
  return der(0x06, Buffer.from(bytes))
}

const utcTime = (date: Date): Buffer =>
  der(0x17, Buffer.from(`${date.toISOString().slice(2, 19).replace(/[-:T]/g, "")}Z`))

const name = (commonName: string) => sequence(der(0x31, sequence(oid("2.5.4.3"), der(0x0c, Buffer.from(commonName)))))

/** A key and its self-signed certificate for `commonName`, valid a day either side of now, as PEM. */
export const selfSigned = (commonName = "localhost"): { readonly key: string; readonly cert: string } => {
  const { privateKey, publicKey } = crypto.generateKeyPairSync("ec", { namedCurve: "prime256v1" })
  const ecdsaWithSha256 = sequence(oid("1.2.840.10045.4.3.2"))
  const day = 86_400_000
  const tbs = sequence(
    der(0x02, Buffer.from([1])),
    ecdsaWithSha256,
    name(commonName),
    sequence(utcTime(new Date(Date.now() - day)), utcTime(new Date(Date.now() + day))),
    name(commonName),
    publicKey.export({ type: "spki", format: "der" })
  )
  const signature = crypto.sign("sha256", tbs, privateKey)
  const cert = sequence(tbs, ecdsaWithSha256, der(0x03, Buffer.from([0]), signature))
  const lines = cert.toString("base64").match(/.{1,64}/g) ?? []
  return {
    key: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
    cert: `-----BEGIN CERTIFICATE-----\n${lines.join("\n")}\n-----END CERTIFICATE-----\n`
  }
}
