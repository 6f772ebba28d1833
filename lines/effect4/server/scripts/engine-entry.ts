/**
 * What the engine bundle exports: the reference server for a runtime other than Effect's (its
 * web-standard handler and its controls) and its constants. `engine/engine.d.ts` says the same in
 * types of no Effect line; `test/Engine.test.ts` keeps the two equal.
 */
export { demoControlToken, inProcessBaseUrl, toWebHandler, toWebServer } from "@community-api/server/ReferenceServer"
