/**
 * Tests on the real clock that fill a creation window judge a try only when it began and ended in one
 * calendar minute (or day): the client's test support has the helper, and the command line's tests
 * use the same one rather than a copy.
 */
export * from "../../../../lines/effect3/client/test/support/Calendar.js"
