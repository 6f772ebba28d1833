/** The first executable `name` on the PATH or in the usual system folders (see `debian.mjs`). */
export declare const which: (name: string) => string | undefined

/** The path of the first of `binaries` found, Debian's package installed first when missing and possible. */
export declare const ensureProgram: (binaries: ReadonlyArray<string>, debianPackage: string) => string

/** Runs `ensure` when the calling module is the command run, printing the path or the error's line. */
export declare const runAsCommand: (url: string, ensure: () => string) => void
