/**
 * What every line of the toolkit shares, with no Effect in it.
 *
 * @since 0.1.0
 */

/**
 * What the admission of an attempt does once its answer is read: an error 9 gives a creation back,
 * an error 5 is told to the limit that refused it.
 *
 * @since 0.1.0
 */
export * as Admission from "./Admission.js"

/**
 * The contract's assumptions about the answers of the API, as data beside the declarations: each
 * with the id its line of the docs ends with and what in an answer confirms or refutes it.
 *
 * @since 0.1.0
 */
export * as Assumptions from "./Assumptions.js"

/**
 * The base URL of the API as both lines' clients take it: the rule that refuses one that cannot work,
 * and the form requests are made from.
 *
 * @since 0.1.0
 */
export * as BaseUrl from "./BaseUrl.js"

/**
 * The body of an answer read within the client's bound, sans I/O: bytes in, when to stop and the
 * text out.
 *
 * @since 0.1.0
 */
export * as BodyReader from "./BodyReader.js"

/**
 * What is left of a user's limits and when it comes back; whether creations fit by an instant.
 *
 * @since 0.1.0
 */
export * as Budget from "./Budget.js"

/**
 * The deadline of one call and the timeout of each exchange, as both lines' clients decide them: what
 * an attempt fails with when either passes.
 *
 * @since 0.1.0
 */
export * as CallDeadline from "./CallDeadline.js"

/**
 * A failure of one call as both lines' clients read it: its kind, the next step, the limit of an
 * error 5, the reasons of an unknown outcome and of an answer not decoded.
 *
 * @since 0.1.0
 */
export * as CallFailure from "./CallFailure.js"

/**
 * The plan of one call's attempts, sans I/O: each failed attempt in, the next step out (again after
 * error 5, on the schedule, an unknown outcome, or fail), the attempts numbered.
 *
 * @since 0.1.0
 */
export * as CallPlan from "./CallPlan.js"

/**
 * The request of one call and the words of its failures: its path and JSON body, the statuses that
 * carry no envelope, the drain of a refused answer, the reason of a transport failure.
 *
 * @since 0.1.0
 */
export * as CallRequest from "./CallRequest.js"

/**
 * The steps of a call both Effect lines take alike, over a line's effects: an answer's envelope read
 * (with the admission's step after a failed answer) and the attempts as the call's plan decides them.
 *
 * @since 0.1.0
 */
export * as CallSteps from "./CallSteps.js"

/**
 * The client's own errors as both lines raise them: their literal values and their messages.
 *
 * @since 0.1.0
 */
export * as ClientErrors from "./ClientErrors.js"

/**
 * The methods of a client from the contract: the tables per section, the operation of a call by
 * path, the position of a page.
 *
 * @since 0.1.0
 */
export * as ClientMethods from "./ClientMethods.js"

/**
 * The options of a client as both lines take them, each documented once.
 *
 * @since 0.1.0
 */
export * as ClientOptions from "./ClientOptions.js"

/**
 * What a client is made with, read from its options: each option given or its default, and the user
 * its limits are counted for.
 *
 * @since 0.1.0
 */
export * as ClientSettings from "./ClientSettings.js"

/**
 * The types of a client's methods derived from the contract: the client's own errors of an operation
 * by its flags, a method's parameters, the tables by section and list operation.
 *
 * @since 0.1.0
 */
export * as ClientTypes from "./ClientTypes.js"

/**
 * The clock a runtime gives the reference server and the client's pacing: the current time and scheduled wake-ups.
 *
 * @since 0.1.0
 */
export * as Clock from "./Clock.js"

/**
 * One answer of the API, as plain JSON, compared with what the contract declares of it: fields the
 * contract does not know, required fields missing, type mismatches, values outside a declared set,
 * undeclared error codes; or that it conforms.
 *
 * @since 0.1.0
 */
export * as ContractCheck from "./ContractCheck.js"

/**
 * The creation counts of several users in one process's memory, by the limits' calendar.
 *
 * @since 0.1.0
 */
export * as CreationBook from "./CreationBook.js"

/**
 * The creation quota's decisions over a store of counts: counted, wait for the minute, or refused.
 *
 * @since 0.1.0
 */
export * as CreationQuota from "./CreationQuota.js"

/**
 * The demo data: communities, employees, subscribers, bots, mailings, tokens, as plain fixture data.
 *
 * @since 0.1.0
 */
export * as DemoData from "./DemoData.js"

/**
 * Discovery of an undocumented operation's shape: the JSON Schema inferred from the answers seen, and
 * a draft of the contract's declaration (Effect Schema source) for a person to review.
 *
 * @since 0.1.0
 */
export * as Discovery from "./Discovery.js"

/**
 * A declared drift: how a world's answers differ from the contract (a field renamed, removed, added
 * or given another value, an undeclared error code), as plain data, and how it alters an answer.
 *
 * @since 0.1.0
 */
export * as Drift from "./Drift.js"

/**
 * The names of the environment variables that configure a client.
 *
 * @since 0.1.0
 */
export * as Environment from "./Environment.js"

/**
 * The API's error codes as a plain table: each code's kind and meaning.
 *
 * @since 0.1.0
 */
export * as ErrorCodes from "./ErrorCodes.js"

/**
 * The creations a process counted in its own memory while the shared store of counts could not be
 * reached, so that each is given back or counted again there.
 *
 * @since 0.1.0
 */
export * as FallbackCreations from "./FallbackCreations.js"

/**
 * The limiters' stores with this process's memory behind the shared one: which store each operation
 * goes to while the shared store is unavailable.
 *
 * @since 0.1.0
 */
export * as FallbackStores from "./FallbackStores.js"

/**
 * How a client reads the body of an answer: its bound, its depth, its JSON.
 *
 * @since 0.1.0
 */
export * as JsonBody from "./JsonBody.js"

/**
 * The priority lanes of a user's requests: interactive calls ahead of batch calls.
 *
 * @since 0.1.0
 */
export * as Lane from "./Lane.js"

/**
 * The API's limits and the calendar arithmetic of the creation windows.
 *
 * @since 0.1.0
 */
export * as Limits from "./Limits.js"

/**
 * The client's metrics as both Effect lines declare them: names, units, tags, histogram boundaries.
 *
 * @since 0.1.0
 */
export * as MetricNames from "./MetricNames.js"

/**
 * How the client's counters record calls, retries and refusals: the series each event adds to.
 *
 * @since 0.1.0
 */
export * as MetricRecorder from "./MetricRecorder.js"

/**
 * The OpenAPI document's plain parts and its assembly around a line's JSON Schemas.
 *
 * @since 0.1.0
 */
export * as OpenApiDocument from "./OpenApiDocument.js"

/**
 * The declaration of one operation as plain data, and the words every surface says of it.
 *
 * @since 0.1.0
 */
export * as Operation from "./Operation.js"

/**
 * Every operation of the API as plain declarations, grouped by section.
 *
 * @since 0.1.0
 */
export * as Operations from "./Operations.js"

/**
 * What every option of both lines takes (the client's, the limiters' and the Redis stores'), checked
 * where it is given: the reason of each refusal.
 *
 * @since 0.1.0
 */
export * as OptionRules from "./OptionRules.js"

/**
 * The pacing service's settings resolved and the pacing rules of every user in one process: when a
 * permit is taken, how long it stays held after its answer, when the idle rules leave.
 *
 * @since 0.1.0
 */
export * as PacingBook from "./PacingBook.js"

/**
 * How long a pacing permit stays held after its request.
 *
 * @since 0.1.0
 */
export * as PacingRule from "./PacingRule.js"

/**
 * Which pages a stream over a list asks for ahead of the caller: the next, and the one after it.
 *
 * @since 0.1.0
 */
export * as PageAhead from "./PageAhead.js"

/**
 * What a parameter of an operation takes, in plain words, and a refused value said in those words, for
 * the client, the command line and the MCP server of both lines.
 *
 * @since 0.1.0
 */
export * as ParameterWords from "./ParameterWords.js"

/**
 * The pacing permits of every user in one process, as the memory store of either line decides them:
 * take, wait, hold past the answer, give back, blocks and the budget.
 *
 * @since 0.1.0
 */
export * as PermitBook from "./PermitBook.js"

/**
 * One user's pacing permits in one process and the calls waiting for one, by lane.
 *
 * @since 0.1.0
 */
export * as PermitQueue from "./PermitQueue.js"

/**
 * What a store of pacing permits is: take, release with a hold, budget and block, per user.
 *
 * @since 0.1.0
 */
export * as PermitStore from "./PermitStore.js"

/**
 * How the limiters' Redis store connects (one server or a cluster) and what its failures say.
 *
 * @since 0.1.0
 */
export * as RedisConnection from "./RedisConnection.js"

/**
 * The creation counts of the limiters' Redis store: each operation as one call and how its reply
 * reads.
 *
 * @since 0.1.0
 */
export * as RedisCounts from "./RedisCounts.js"

/**
 * The layout of the keys of the limiters' Redis store.
 *
 * @since 0.1.0
 */
export * as RedisKeys from "./RedisKeys.js"

/**
 * This process's side of the pacing permits kept in Redis: the calls to send and what their replies
 * mean.
 *
 * @since 0.1.0
 */
export * as RedisPermitBook from "./RedisPermitBook.js"

/**
 * What the Redis store of the pacing permits does next: the asking loop, the renewals, the give-back,
 * as steps that a line carries out.
 *
 * @since 0.1.0
 */
export * as RedisPermitPlan from "./RedisPermitPlan.js"

/**
 * The Redis store of the pacing permits put together over a line's effects: take, release, budget
 * and block, and the renewal loop.
 *
 * @since 0.1.0
 */
export * as RedisPermitStore from "./RedisPermitStore.js"

/**
 * The Lua scripts of the limiters' Redis store and the layout of their arguments and replies.
 *
 * @since 0.1.0
 */
export * as RedisScripts from "./RedisScripts.js"

/**
 * The options of the limiters' Redis store with their defaults, in milliseconds.
 *
 * @since 0.1.0
 */
export * as RedisStoreOptions from "./RedisStoreOptions.js"

/**
 * The two stores of the Redis store as data: the limiter each serves, the rules of its options and
 * its settings.
 *
 * @since 0.1.0
 */
export * as RedisStores from "./RedisStores.js"

/**
 * How the Redis store of the shared limiters is reached and named: one server's URL or a cluster's
 * nodes (`redis+cluster://`), named without credentials.
 *
 * @since 0.1.0
 */
export * as RedisUrl from "./RedisUrl.js"

/**
 * When a client sends a request again, as a plain table.
 *
 * @since 0.1.0
 */
export * as RetryTable from "./RetryTable.js"

/**
 * A small seeded generator, so that a run that draws can be repeated.
 *
 * @since 0.1.0
 */
export * as SeededRandom from "./SeededRandom.js"

/**
 * The span of a call as both lines make it: its name, kind and attributes, and no stack trace.
 *
 * @since 0.1.0
 */
export * as Spans from "./Spans.js"

/**
 * What the limiters' shared stores decide around this process's memory: the store to build once Redis
 * was loaded or not, and the one warning of a fallback.
 *
 * @since 0.1.0
 */
export * as StoreFallback from "./StoreFallback.js"

/**
 * Where a program's calls go, as read from the environment: a real API or the embedded sandbox.
 *
 * @since 0.1.0
 */
export * as Target from "./Target.js"

/**
 * Every error text the reference server sends, in Russian, and which parts of a path may be shown.
 *
 * @since 0.1.0
 */
export * as Texts from "./Texts.js"

/**
 * A call of a sans-I/O object run at the current time in a line's effect, named without Effect.
 *
 * @since 0.1.0
 */
export * as Timed from "./Timed.js"

/**
 * Timers in one list sorted by when each falls due, for one waiter per clock instead of one per timer.
 *
 * @since 0.1.0
 */
export * as TimerList from "./TimerList.js"

/**
 * The plan of the timers' fiber of each clock: when it is forked, stopped, what is due and how long it
 * sleeps, carried out by either line with its own fibers and sleeps.
 *
 * @since 0.1.0
 */
export * as TimerPlan from "./TimerPlan.js"

/**
 * The cause of a failed connection read from the platform's error chain: the system's code, the host
 * and port, and a plain phrase.
 *
 * @since 0.1.0
 */
export * as TransportCause from "./TransportCause.js"

/**
 * The key of a user in the shared limiters, derived from the token the same way in every line.
 *
 * @since 0.1.0
 */
export * as UserKey from "./UserKey.js"

/**
 * Per-user state held only while its user is active: idle entries leave memory.
 *
 * @since 0.1.0
 */
export * as UserTable from "./UserTable.js"

/**
 * The wire's primitives as plain rules: channels, integers and ids, dates, a page's count and offset,
 * the rules of a name, and the words each refuses a value with.
 *
 * @since 0.1.0
 */
export * as Wire from "./Wire.js"

/**
 * The JSON Schemas of the wire's primitives, the same on both lines.
 *
 * @since 0.1.0
 */
export * as WireJsonSchema from "./WireJsonSchema.js"
