/** Runs one command on the `redis-server` at `port` with `redis-cli`: the lines of its answer, one value a line. */
export declare const redisCommand: (port: number, ...args: ReadonlyArray<string>) => Promise<ReadonlyArray<string>>

/** From now on the server at `port` keeps every command it runs (up to 10,000 of them), and none before. */
export declare const recordCommands: (port: number) => Promise<void>

/** The keys and other arguments of the commands kept since `recordCommands`, one a line, no repeats. */
export declare const recordedArguments: (port: number) => Promise<ReadonlyArray<string>>
