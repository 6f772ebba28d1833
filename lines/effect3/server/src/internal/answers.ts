/**
 * Declared answers (`Options.undocumentedAnswers`): the bodies the server answers for the E17 reading
 * operations it does not model, instead of error 6. Checked once, when the server is made: only an
 * operation of the contract that is undocumented, only reads and is not modelled may be given one.
 *
 * @internal
 */
import { Operations } from "@community-api/schema"
import { Either } from "effect"
import type { UndocumentedAnswers } from "../Faults.js"
import { UndocumentedAnswersError } from "../Faults.js"
import { handlerOf } from "./handlers/index.js"

/** Why `path` may not be given a declared answer; `undefined` when it may. */
const refusalOf = (path: string): string | undefined => {
  const op = Operations.byPath.get(path)
  if (op === undefined) return "is no operation of the contract"
  if (op.documented) return "is documented: the server answers it from its world (a drift alters that answer)"
  if (!op.reads) return "does not only read: only reading operations answer declared bodies"
  if (typeof handlerOf(op) === "function") {
    return "is modelled: the server answers it from its world (a drift alters that answer)"
  }
  return undefined
}

/** The declared answers by operation, or the error of the first operation that may not have one. */
export const check = (
  answers: UndocumentedAnswers
): Either.Either<ReadonlyMap<string, UndocumentedAnswers[string]>, UndocumentedAnswersError> => {
  for (const operation of Object.keys(answers)) {
    const reason = refusalOf(operation)
    if (reason !== undefined) return Either.left(new UndocumentedAnswersError({ operation, reason }))
  }
  return Either.right(new Map(Object.entries(answers)))
}
