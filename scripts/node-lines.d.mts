/** The oldest and the newest maintained Node line, as major versions (`"22"`, `"26"`). */
export declare const lines: ReadonlyArray<string>

/** The path of the line's `node` binary, installed from the npm registry's `node` package first when missing. */
export declare const nodeOf: (major: string) => string
