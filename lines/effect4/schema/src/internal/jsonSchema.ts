/**
 * The JSON Schema of what the wire carries, derived from this line's schemas by the conventions of the
 * Effect 3 line's derivation (effect 3's `JSONSchema`, as `@community-api/schema/JsonSchema` uses it),
 * so that both lines describe the contract with the same document.
 *
 * Effect 4's own `Schema.toJsonSchemaDocument` describes another wire: the canonical JSON codec of a
 * schema (an optional field also takes `null`), every integer bounded to the safe range, unions of an
 * integer and a string of digits spelt out, and other words for the checks. So this module walks the
 * encoded side of the AST itself, node by node as effect 3 does:
 *
 * - a named node (an `identifier`) is a reference to its definition, derived once;
 * - a node carrying {@link override} (the wire's primitives, from `@community-api/core/WireJsonSchema`)
 *   is that schema when it states a type, or adds its keywords to a check's;
 * - a check adds its keyword (`pattern`, `minLength`, ...) with its title and description, effect 3's
 *   words when the check has none of its own; the integer check is effect 3's `Int`, a named schema;
 * - a transformation is described by its encoded side, with the title and description of the node;
 * - a check with no keyword (a predicate) adds nothing, as in effect 3.
 *
 * Anything else stops the walk with the path of the node, so that a new kind of schema is never
 * described by guess.
 */
import type { SchemaAST } from "effect"

/**
 * A JSON value.
 */
export type Json = string | number | boolean | null | ReadonlyArray<Json> | { readonly [key: string]: Json }

/**
 * A JSON object: a JSON Schema.
 */
export type JsonObject = { readonly [key: string]: Json }

/**
 * The annotation that gives a node the JSON Schema of its wire form, as effect 3's `jsonSchema`
 * annotation does on the Effect 3 line: with a `type`, the node's whole schema; without, keywords a
 * check adds.
 */
export const override = "@community-api/jsonSchema"

/**
 * Where the named schemas (those with an identifier) are put, and the path a reference takes to them.
 */
export interface References {
  readonly definitions: Record<string, Json>
  /** What a reference starts with: `#/components/schemas/`. */
  readonly path: string
}

/**
 * How a schema is derived.
 */
export interface Options {
  /** Named schemas kept as references into these definitions. */
  readonly references: References
  /** Whether an object admits properties it does not name (`true` for the wire as the server reads it). */
  readonly otherProperties: boolean
}

type Mutable = { [key: string]: Json }

const isObject = (json: unknown): json is JsonObject =>
  typeof json === "object" && json !== null && !Array.isArray(json)

/** Effect 3's `Int`: a named schema, with effect 3's title and description of the integer check. */
const int = { identifier: "Int", schema: { type: "integer", description: "an integer", title: "int" } } as const

/** What effect 3 says of a check: its keywords, and its default title and description. */
interface CheckWords {
  readonly json: JsonObject
  readonly title?: string
  readonly description: string
}

/**
 * Effect 3's words for each check this line's primitives and generated schemas use, by the check's
 * representation in effect 4 (whose payload carries the check's bound).
 */
const checks: { readonly [id: string]: (payload: any) => CheckWords } = {
  "effect/schema/isPattern": (payload: { readonly source: string }) => ({
    json: { pattern: payload.source },
    description: `a string matching the pattern ${payload.source}`
  }),
  "effect/schema/isMinLength": (payload: { readonly minLength: number }) => ({
    json: { minLength: payload.minLength },
    title: `minLength(${payload.minLength})`,
    description: `a string at least ${payload.minLength} character(s) long`
  }),
  "effect/schema/isMaxLength": (payload: { readonly maxLength: number }) => ({
    json: { maxLength: payload.maxLength },
    title: `maxLength(${payload.maxLength})`,
    description: `a string at most ${payload.maxLength} character(s) long`
  }),
  "effect/schema/isGreaterThanOrEqualTo": (payload: { readonly minimum: number }) => ({
    json: { minimum: payload.minimum },
    title: `greaterThanOrEqualTo(${payload.minimum})`,
    description: `a number greater than or equal to ${payload.minimum}`
  })
}

/**
 * A node seen with its first `depth` checks: effect 3 nests a refinement per check, and effect 4 keeps
 * the annotations of the outermost one on its check (`annotate` puts them on the last check).
 */
interface View {
  readonly ast: SchemaAST.AST
  readonly depth: number
}

const top = (ast: SchemaAST.AST): View => ({ ast, depth: ast.checks?.length ?? 0 })

const checkOf = (view: View): SchemaAST.Check<unknown> | undefined =>
  view.depth === 0 ? undefined : view.ast.checks![view.depth - 1]

const annotationsOf = (view: View): { readonly [key: string]: unknown } =>
  (view.depth === 0 ? view.ast.annotations : checkOf(view)!.annotations) ?? {}

const representationOf = (check: SchemaAST.Check<unknown>) =>
  check.annotations?.representation as { readonly id: string; readonly payload: unknown } | undefined

/** Effect 3's `Int`: a number with the integer check only. */
const isInt = (view: View) =>
  view.ast._tag === "Number" && view.depth === 1 && representationOf(checkOf(view)!)?.id === "effect/schema/isInt"

const identifierOfView = (view: View): string | undefined => {
  const identifier = annotationsOf(view).identifier
  if (typeof identifier === "string") return identifier
  return isInt(view) ? int.identifier : undefined
}

/** The title, description, default and examples a node states of its own (effect 3's annotations). */
const ownAnnotations = (annotations: { readonly [key: string]: unknown }): JsonObject => {
  const out: Mutable = {}
  for (const key of ["description", "title", "default", "examples"] as const) {
    if (annotations[key] !== undefined) out[key] = annotations[key] as Json
  }
  return out
}

/** Effect 3's `addAnnotations`: beside a reference, the annotations wrap it in `allOf`. */
const addAnnotations = (json: JsonObject, annotations: JsonObject): JsonObject => {
  if (Object.keys(annotations).length === 0) return json
  return "$ref" in json ? { allOf: [json], ...annotations } : { ...json, ...annotations }
}

const boundKeywords: ReadonlyArray<readonly [string, (inner: any, outer: any) => boolean]> = [
  ["minLength", (i, o) => i > o],
  ["maxLength", (i, o) => i < o],
  ["pattern", (i, o) => i !== o],
  ["minItems", (i, o) => i > o],
  ["maxItems", (i, o) => i < o],
  ["minimum", (i, o) => i > o],
  ["maximum", (i, o) => i < o],
  ["exclusiveMinimum", (i, o) => i > o],
  ["exclusiveMaximum", (i, o) => i < o],
  ["multipleOf", (i, o) => i !== o]
]

/** Effect 3's `mergeRefinements`: the check's keywords over the inner schema's, a stricter inner bound kept in `allOf`. */
const mergeRefinements = (from: JsonObject, json: JsonObject, annotations: JsonObject): JsonObject => {
  const out: Mutable = { ...from, ...annotations, ...json }
  let allOf: Array<Json> = []
  for (const [name, keep] of boundKeywords) {
    if (name in json && name in from) {
      allOf.unshift({ [name]: from[name]! })
      allOf = allOf.filter((item) => keep((item as JsonObject)[name], json[name]))
    }
  }
  if (allOf.length > 0) out.allOf = allOf
  return out
}

const isCompactableLiteral = (json: JsonObject) =>
  Object.keys(json).length === 2 && Array.isArray(json.enum) && typeof json.type === "string"

/** Effect 3's `compactUnion`: neighbouring literals of one type become one `enum`. */
const compactUnion = (members: ReadonlyArray<JsonObject>): Array<JsonObject> => {
  const out: Array<JsonObject> = []
  for (const member of members) {
    const last = out[out.length - 1]
    if (last !== undefined && isCompactableLiteral(member) && isCompactableLiteral(last) && last.type === member.type) {
      out[out.length - 1] = { type: last.type, enum: [...last.enum as Array<Json>, ...member.enum as Array<Json>] }
      continue
    }
    out.push(member)
  }
  return out
}

/** A property's type without the `undefined` of `Schema.optional`. */
const pruneUndefined = (ast: SchemaAST.AST): SchemaAST.AST | undefined => {
  if (ast._tag !== "Union" || ast.checks !== undefined || ast.encoding !== undefined) return undefined
  const defined = ast.types.filter((member) => member._tag !== "Undefined")
  if (defined.length === ast.types.length) return undefined
  if (defined.length !== 1) throw new Error("an optional field of a union is not described")
  return defined[0]
}

type Identifiers = "handle" | "ignore"

const escape = (identifier: string) => identifier.replace(/~/g, "~0").replace(/\//g, "~1")

const go = (view: View, options: Options, identifiers: Identifiers, path: string): JsonObject => {
  const { references } = options
  if (identifiers === "handle") {
    const identifier = identifierOfView(view)
    if (identifier !== undefined) {
      const reference = { $ref: `${references.path}${escape(identifier)}` }
      if (!Object.hasOwn(references.definitions, identifier)) {
        // Effect 3 marks the name taken before deriving it, so that the first schema of a name defines it.
        references.definitions[identifier] = reference
        references.definitions[identifier] = go(view, options, "ignore", path)
      }
      return reference
    }
  }
  const annotations = annotationsOf(view)
  const given = annotations[override] as JsonObject | undefined
  if (given !== undefined && "type" in given) return structuredClone(given) as JsonObject
  const { ast } = view
  // A transformation (checks of its decoded side aside): its encoded side, with the node's own words.
  if (view.depth === (ast.checks?.length ?? 0) && ast.encoding !== undefined) {
    const encoded = ast.encoding[ast.encoding.length - 1]!.to
    return addAnnotations(go(top(encoded), options, identifiers, path), ownAnnotations(annotations))
  }
  const check = checkOf(view)
  if (check !== undefined) {
    if (isInt(view)) return addAnnotations(int.schema, ownAnnotations(annotations))
    const from = { ast, depth: view.depth - 1 }
    if (given !== undefined) {
      return mergeRefinements(go(from, options, identifiers, path), given, ownAnnotations(annotations))
    }
    const representation = representationOf(check)
    // A predicate with no keyword: effect 3 describes its refinement by what it refines.
    if (representation === undefined) return go(from, options, identifiers, path)
    const known = checks[representation.id]
    if (check._tag !== "Filter" || known === undefined) {
      throw new Error(`${path}: the check ${representation.id} is not described`)
    }
    const { description, json, title } = known(representation.payload)
    return mergeRefinements(go(from, options, identifiers, path), json, {
      ...(title === undefined ? {} : { title }),
      description,
      ...ownAnnotations(annotations)
    })
  }
  const own = ownAnnotations(annotations)
  switch (ast._tag) {
    case "String":
      return addAnnotations({ type: "string" }, own)
    case "Number":
      return addAnnotations({ type: "number" }, own)
    case "Boolean":
      return addAnnotations({ type: "boolean" }, own)
    case "Unknown":
      return addAnnotations({ title: "unknown" }, own)
    case "Literal": {
      const literal = ast.literal
      if (typeof literal === "string") return addAnnotations({ type: "string", enum: [literal] }, own)
      if (typeof literal === "number") return addAnnotations({ type: "number", enum: [literal] }, own)
      if (typeof literal === "boolean") return addAnnotations({ type: "boolean", enum: [literal] }, own)
      throw new Error(`${path}: a literal that is no string, number or boolean is not described`)
    }
    case "Union": {
      const members = compactUnion(
        ast.types.map((member, index) => go(top(member), options, "handle", `${path}|${index}`))
      )
      if (members.length === 1) return addAnnotations(members[0]!, own)
      return addAnnotations({ anyOf: members }, own)
    }
    case "Arrays": {
      if (ast.elements.length === 0 && ast.rest.length === 1) {
        return addAnnotations({ type: "array", items: go(top(ast.rest[0]!), options, "handle", `${path}[]`) }, own)
      }
      throw new Error(`${path}: a tuple is not described`)
    }
    case "Objects": {
      if (ast.propertySignatures.length === 0 && ast.indexSignatures.length === 0) {
        // Effect 3's "any non-null value" of an empty struct.
        return addAnnotations({ anyOf: [{ type: "object" }, { type: "array" }] }, own)
      }
      const required: Array<string> = []
      const properties: Mutable = {}
      let additionalProperties: Json = options.otherProperties
      for (const signature of ast.indexSignatures) {
        if (signature.parameter._tag !== "String") throw new Error(`${path}: a record's key is a string`)
        const type = pruneUndefined(signature.type) ?? signature.type
        additionalProperties = go(top(type), options, "handle", `${path}[*]`)
      }
      for (const signature of ast.propertySignatures) {
        const name = signature.name
        if (typeof name !== "string") throw new Error(`${path}: a key that is no string is not described`)
        const pruned = pruneUndefined(signature.type)
        properties[name] = go(top(pruned ?? signature.type), options, "handle", `${path}.${name}`)
        if (signature.type.context?.isOptional !== true && pruned === undefined) required.push(name)
      }
      return addAnnotations({ type: "object", required, properties, additionalProperties }, own)
    }
    default:
      throw new Error(`${path}: ${ast._tag} is not described`)
  }
}

/** A literal union of whole numbers: effect 3 says `number`, the API has no fractional number anywhere. */
const isWholeNumberLiteral = (json: JsonObject) =>
  json.type === "number" &&
  ((Array.isArray(json.enum) && json.enum.every(Number.isInteger)) || Number.isInteger(json.const))

/** The Effect 3 line's `normalize`: whole-number literals as `integer`. */
const normalize = (json: Json): Json => {
  if (Array.isArray(json)) return json.map(normalize)
  if (!isObject(json)) return json
  const out = Object.fromEntries(Object.entries(json).map(([key, value]) => [key, normalize(value)]))
  return isWholeNumberLiteral(out) ? { ...out, type: "integer" } : out
}

/**
 * The JSON Schema of the wire form of `ast`, its named schemas as references into
 * `options.references`.
 */
export const make = (ast: SchemaAST.AST, options: Options, path = "schema"): Json =>
  normalize(go(top(ast), options, "handle", path))

/**
 * The input schema of a payload: an object whose properties are the parameters. A struct with no
 * fields is an object with no property (effect 3 would say "any non-null value").
 */
export const fromPayload = (ast: SchemaAST.AST, options: Options, path = "payload"): JsonObject => {
  if (ast._tag === "Objects" && ast.propertySignatures.length === 0 && ast.indexSignatures.length === 0) {
    return { type: "object", properties: {}, additionalProperties: options.otherProperties }
  }
  const json = make(ast, options, path)
  if (!isObject(json)) throw new Error(`${path}: a payload must be an object schema`)
  return json
}

/**
 * The name of a schema, if it has one: where effect 4 keeps it (on the last check when there are
 * checks), or effect 3's `Int` for the integer.
 */
export const identifierOf = (ast: SchemaAST.AST): string | undefined => identifierOfView(top(ast))

/**
 * The definitions gathered in `references`, in the form {@link make} gives schemas.
 */
export const definitionsOf = (references: References): JsonObject => normalize(references.definitions) as JsonObject
