/**
 * How the Redis store of the shared limiters is named to users, in either Effect line: its URL
 * without credentials, and reasons without the password.
 *
 * @since 0.1.0
 */

/**
 * The store as a log or an error names it: the URL without user, password or query.
 *
 * @since 0.1.0
 * @category utils
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
 * A function that blanks the password of `url` wherever a text holds it (a reason from the driver).
 *
 * @since 0.1.0
 * @category utils
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
