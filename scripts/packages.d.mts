/** A package this repository publishes (see `packages.mjs`). */
export interface PublishedPackage {
  /** Its folder, relative to the workspace's root: `packages/core`, `apps/cli`. */
  readonly folder: string
  readonly name: string
  readonly version: string
  /** Its `package.json` as in the workspace (before `publishConfig` and `workspace:` are applied). */
  readonly manifest: Record<string, unknown>
}

/** The root of the workspace. */
export declare const root: string

/** The folders of `pnpm-workspace.yaml`'s `packages` list that hold a `package.json`. */
export declare const workspaceFolders: (from?: string) => ReadonlyArray<string>

/** Every package of the workspace that is not `private`. */
export declare const publishedPackages: (from?: string) => ReadonlyArray<PublishedPackage>
