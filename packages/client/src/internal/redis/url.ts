/**
 * How the Redis store is named to users: its URL without credentials, and reasons without the
 * password. Apart from the connection, so that the layers name the store in an error (when `ioredis`
 * cannot be loaded) without loading the connection.
 *
 * @internal
 */

/**
 * The store as a log or an error names it: the URL without user, password or query.
 *
 * @internal
 */
export const describeUrl = (url: string): string => {
  try {
    const parsed = new URL(url)
    return `${parsed.protocol}//${parsed.host}${parsed.pathname === "/" ? "" : parsed.pathname}`
  } catch {
    return "redis (an unreadable URL)"
  }
}

/**
 * Takes the password of `url` out of `text` (a reason given by Redis or the client library).
 *
 * @internal
 */
export const scrubber = (url: string): (text: string) => string => {
  let password = ""
  try {
    password = decodeURIComponent(new URL(url).password)
  } catch {
    // An unreadable URL has no password to find.
  }
  return (text) => password === "" ? text : text.split(password).join("***")
}
