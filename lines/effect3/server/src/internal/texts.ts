/**
 * Every error text the server sends, in Russian (C6), and which path segments may be shown: they live
 * in the core, so that both Effect lines' servers send the same texts.
 *
 * @internal
 */
export * from "@community-api/core/Texts"
