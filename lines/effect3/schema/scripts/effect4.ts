/**
 * Writes the Effect 4 line's declarations, `lines/effect4/schema/src/generated/*.ts`, from this package's
 * schemas: every resource, every operation's payload, success and item, and every error class is
 * declared here once, in Effect 3, and the Effect 4 line's source is derived from it. Run with
 * `pnpm --filter @community-api/schema effect4`; a test fails when the files are stale.
 *
 * The walk reads each schema's AST. The wire's primitives (integers that may come as strings, ids,
 * channels, dates, count and offset, names with their rules) are not derived: each is a few lines of
 * code in both lines (`lines/effect4/schema/src/internal/primitives.ts`), found here by identity, and the
 * shared wire vectors prove the two behave the same. Anything else the walk does not know stops it
 * with the path of the node, so that a new kind of schema is never translated by guess.
 */
import * as CoreWire from "@community-api/core/Wire"
import { Schema, SchemaAST } from "effect"
import { mkdirSync, writeFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import * as Account from "../src/Account.js"
import * as ApiError from "../src/ApiError.js"
import * as Bot from "../src/Bot.js"
import * as Channel from "../src/Channel.js"
import * as Community from "../src/Community.js"
import * as Dates from "../src/Dates.js"
import * as Ids from "../src/Ids.js"
import * as Landing from "../src/Landing.js"
import * as List from "../src/List.js"
import * as Mailing from "../src/Mailing.js"
import * as Operation from "../src/Operation.js"
import * as Operations from "../src/Operations.js"
import * as Page from "../src/Page.js"
import * as Variable from "../src/Variable.js"
import * as Wire from "../src/Wire.js"

/** Where the files are written. */
export const targetDirectory = fileURLToPath(new URL("../../../effect4/schema/src/generated/", import.meta.url))

/** The wire's primitives, by the AST of this line's schema: the name of the Effect 4 line's twin. */
const primitives = new Map<SchemaAST.AST, string>([
  [Wire.WireInt.ast, "WireInt"],
  [Ids.GroupId.ast, "GroupId"],
  [Ids.Uid.ast, "Uid"],
  [Ids.ObjectId.ast, "ObjectId"],
  [Ids.BotId.ast, "BotId"],
  [Ids.ListId.ast, "ListId"],
  [Ids.VariableId.ast, "VariableId"],
  [Ids.CommunityVariableId.ast, "CommunityVariableId"],
  [Ids.MailingId.ast, "MailingId"],
  [Ids.LandingId.ast, "LandingId"],
  [Ids.StepId.ast, "StepId"],
  [Channel.Channel.ast, "Channel"],
  [Channel.ChannelLiteral.ast, "ChannelLiteral"],
  [Dates.RequestDate.ast, "RequestDate"],
  [Dates.UnixSeconds.ast, "UnixSeconds"],
  [Dates.StatsDate.ast, "StatsDate"],
  [Page.Count.ast, "Count"],
  [Page.Offset.ast, "Offset"],
  [Variable.VariableName.ast, "VariableName"],
  [Variable.VariableTitle.ast, "VariableTitle"],
  [List.ListName.ast, "ListName"],
  [Operation.UnknownPayload.ast, "UnknownPayload"]
])

/** The core's rules and data, by identity: a module that re-exports one is written to re-export it. */
const coreValues = new Map<unknown, string>(
  Object.entries(CoreWire).filter(([, value]) => typeof value === "function" || typeof value === "object").map((
    [name, value]
  ) => [value, name])
)

/** Effect's own schemas that have the same name and meaning in both lines. */
const effectSchemas = new Map<SchemaAST.AST, string>([
  [Schema.Int.ast, "Schema.Int"],
  [Schema.String.ast, "Schema.String"],
  [Schema.Number.ast, "Schema.Number"],
  [Schema.Boolean.ast, "Schema.Boolean"],
  [Schema.Unknown.ast, "Schema.Unknown"],
  [Schema.Void.ast, "Schema.Void"]
])

/** The modules whose schemas are resources, in the order they are written. */
const resourceModules = { Account, Bot, Community, Landing, List, Mailing, Variable } as const

/** The resources: a schema exported by a resource module, by its AST, with where it is written. */
const resources = new Map<SchemaAST.AST, { readonly module: string; readonly name: string }>()
for (const [module, exports] of Object.entries(resourceModules)) {
  for (const [name, value] of Object.entries(exports)) {
    if (Schema.isSchema(value) && !primitives.has(value.ast)) resources.set(value.ast, { module, name })
  }
}

const header = (what: string) =>
  [
    "/**",
    ` * ${what}`,
    " *",
    " * Generated from `@community-api/schema` (the Effect 3 line) by its `scripts/effect4.ts`: do not edit;",
    " * run `pnpm --filter @community-api/schema effect4` after changing the contract.",
    " *",
    " * @since 0.1.0",
    " */"
  ].join("\n")

const doc = (text: string, category: string) => `/**\n * ${text}\n *\n * @since 0.1.0\n * @category ${category}\n */`

const literal = (value: SchemaAST.LiteralValue): string =>
  typeof value === "bigint" ? `${value}n` : JSON.stringify(value)

const key = (name: PropertyKey): string =>
  typeof name === "string" && /^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(String(name))

/** The annotations a node carries of its own that the Effect 4 line keeps: a description. */
const annotationsOf = (ast: SchemaAST.AST, defaults: SchemaAST.AST | undefined): string => {
  const description = SchemaAST.getDescriptionAnnotation(ast)
  if (description._tag === "None") return ""
  if (defaults !== undefined) {
    const inherited = SchemaAST.getDescriptionAnnotation(defaults)
    if (inherited._tag === "Some" && inherited.value === description.value) return ""
  }
  return `.annotate({ description: ${JSON.stringify(description.value)} })`
}

/** The title and description of a check, as the annotations argument of its Effect 4 constructor. */
const checkAnnotationsOf = (ast: SchemaAST.Refinement): string => {
  const words = [
    ["title", SchemaAST.getTitleAnnotation(ast)],
    ["description", SchemaAST.getDescriptionAnnotation(ast)]
  ] as const
  const given = words.flatMap(([name, value]) =>
    value._tag === "Some" ? [`${name}: ${JSON.stringify(value.value)}`] : []
  )
  return given.length === 0 ? "" : `, { ${given.join(", ")} }`
}

/** The keywords' own nodes, whose default descriptions ("a string") are not the contract's words. */
const keywordDefaults: Partial<Record<SchemaAST.AST["_tag"], SchemaAST.AST>> = {
  StringKeyword: SchemaAST.stringKeyword,
  NumberKeyword: SchemaAST.numberKeyword,
  BooleanKeyword: SchemaAST.booleanKeyword,
  UnknownKeyword: SchemaAST.unknownKeyword
}

/** Names the Effect 4 source refers to, by the module that exports them. */
interface Emitter {
  readonly uses: Set<string>
  /** The resource being written, which refers to its own module's resources by bare name. */
  readonly module: string | undefined
  /** Those of its own module's resources it refers to, which must be declared before it. */
  readonly before: Set<string>
}

const isUndefined = (ast: SchemaAST.AST) => ast._tag === "UndefinedKeyword"

/**
 * The Effect 4 expression of the schema `ast`, at `path` (for errors), written at `indent` (a struct
 * puts a field on each line).
 */
const emit = (ast: SchemaAST.AST, path: string, emitter: Emitter, top = false, indent = ""): string => {
  const inner = `${indent}  `
  const primitive = primitives.get(ast)
  if (primitive !== undefined) {
    emitter.uses.add("Primitives")
    return `Primitives.${primitive}`
  }
  const effect = effectSchemas.get(ast)
  if (effect !== undefined) return effect
  const resource = resources.get(ast)
  if (resource !== undefined && !top) {
    if (resource.module === emitter.module) {
      emitter.before.add(resource.name)
      return resource.name
    }
    emitter.uses.add(resource.module)
    return `${resource.module}.${resource.name}`
  }
  const identifier = SchemaAST.getIdentifierAnnotation(ast)
  const named = (expression: string) =>
    identifier._tag === "Some"
      ? `${expression}.annotate({ identifier: ${JSON.stringify(identifier.value)} })`
      : expression
  switch (ast._tag) {
    case "StringKeyword":
    case "NumberKeyword":
    case "BooleanKeyword":
    case "UnknownKeyword": {
      const name =
        { StringKeyword: "String", NumberKeyword: "Number", BooleanKeyword: "Boolean", UnknownKeyword: "Unknown" }[
          ast._tag
        ]
      return named(`Schema.${name}${annotationsOf(ast, keywordDefaults[ast._tag])}`)
    }
    case "Literal":
      return named(`Schema.Literal(${literal(ast.literal)})`)
    case "Union": {
      if (ast.types.every((member) => member._tag === "Literal")) {
        const values = ast.types.map((member) => literal((member as SchemaAST.Literal).literal))
        return named(`Schema.Literals([${values.join(", ")}])`)
      }
      const members = ast.types.map((member, index) => emit(member, `${path}|${index}`, emitter, false, indent))
      return named(`Schema.Union([${members.join(", ")}])`)
    }
    case "TupleType": {
      if (ast.elements.length === 0 && ast.rest.length === 1) {
        return named(`Schema.Array(${emit(ast.rest[0]!.type, `${path}[]`, emitter, false, indent)})`)
      }
      throw new Error(`${path}: a tuple other than an array is not translated`)
    }
    case "TypeLiteral": {
      const fields = ast.propertySignatures.map((property) => {
        const at = `${path}.${String(property.name)}`
        if (property.isReadonly !== true) throw new Error(`${at}: a mutable field is not translated`)
        if (!property.isOptional) return `${key(property.name)}: ${emit(property.type, at, emitter, false, inner)}`
        // `Schema.optional(X)`: an optional key whose type is `X | undefined`, the same in both lines.
        const type = property.type
        if (type._tag !== "Union" || !type.types.some(isUndefined)) {
          throw new Error(`${at}: an optional field is translated only as Schema.optional`)
        }
        const present = type.types.filter((member) => !isUndefined(member))
        return `${key(property.name)}: Schema.optional(${
          emit(present.length === 1 ? present[0]! : SchemaAST.Union.make(present), at, emitter, false, inner)
        })`
      })
      const struct = fields.length === 0
        ? "Schema.Struct({})"
        : `Schema.Struct({\n${fields.map((field) => `${inner}${field}`).join(",\n")}\n${indent}})`
      if (ast.indexSignatures.length === 0) return named(struct)
      const records = ast.indexSignatures.map((signature) => {
        if (signature.parameter._tag !== "StringKeyword") throw new Error(`${path}: a record's key is a string`)
        return `Schema.Record(Schema.String, ${emit(signature.type, `${path}[*]`, emitter, false, indent)})`
      })
      return named(
        ast.propertySignatures.length === 0 && records.length === 1
          ? records[0]!
          : `Schema.StructWithRest(${struct}, [${records.join(", ")}])`
      )
    }
    case "Refinement": {
      // An integer at least some bound (a page's total), with the check's own words (effect 3's
      // `nonNegative` says "a non-negative number"), which the OpenAPI document of both lines shows.
      const json = ast.annotations[SchemaAST.JSONSchemaAnnotationId] as { readonly minimum?: number } | undefined
      if (ast.from === Schema.Int.ast && json !== undefined && Object.keys(json).join() === "minimum") {
        return named(`Schema.Int.check(Schema.isGreaterThanOrEqualTo(${json.minimum}${checkAnnotationsOf(ast)}))`)
      }
      throw new Error(`${path}: a refinement that is not a primitive is not translated`)
    }
    case "Transformation": {
      // `WireIntLiteral(...values)`: an integer of the wire that must be one of the values.
      if (ast.from === Wire.WireInt.ast && ast.to._tag === "Union") {
        const values = ast.to.types.map((member) => {
          if (member._tag !== "Literal" || typeof member.literal !== "number") {
            throw new Error(`${path}: a wire integer literal is a number`)
          }
          return literal(member.literal)
        })
        emitter.uses.add("Primitives")
        return named(`Primitives.WireIntLiteral(${values.join(", ")})`)
      }
      throw new Error(`${path}: a transformation that is not a primitive is not translated`)
    }
    case "VoidKeyword":
      return "Schema.Void"
    default:
      throw new Error(`${path}: ${ast._tag} is not translated`)
  }
}

/** Plain data (numbers, strings, arrays and records of them), as a constant. */
const data = (value: unknown, path: string): string => {
  const text = JSON.stringify(value)
  if (text === undefined || JSON.stringify(JSON.parse(text)) !== text) throw new Error(`${path}: not plain data`)
  return `${text} as const`
}

const importsOf = (uses: Set<string>, self?: string) =>
  [
    `import { Schema } from "effect"`,
    ...[...uses].filter((name) => name !== self).sort().map((name) =>
      name === "Primitives"
        ? `import * as Primitives from "../internal/primitives.js"`
        : name === "Wire"
        ? `import * as Wire from "@community-api/core/Wire"`
        : `import * as ${name} from "./${name}.js"`
    )
  ].join("\n")

/** One resource module: its schemas and their types, its plain data, its functions. */
const resourceModule = (module: string, exports: Record<string, unknown>): string => {
  const uses = new Set<string>()
  const declarations = new Map<string, { readonly text: string; readonly before: ReadonlySet<string> }>()
  // By name, whatever order the module system lists them in; a schema then follows those it refers to.
  const byName = Object.entries(exports).sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0)
  for (const [name, value] of byName) {
    const emitter: Emitter = { uses, module, before: new Set() }
    let text: string
    if (Schema.isSchema(value)) {
      const expression = emit(value.ast, `${module}.${name}`, emitter, true)
      text = `${doc(`\`${name}\`, as \`@community-api/schema/${module}\` declares it.`, "schemas")}\n` +
        `export const ${name} = ${expression}\n\n` +
        `${doc(`The decoded \`${name}\`.`, "models")}\nexport type ${name} = typeof ${name}.Type`
    } else if (coreValues.has(value)) {
      uses.add("Wire")
      text = `${
        doc(
          `\`${name}\`, as \`@community-api/schema/${module}\` exports it.`,
          typeof value === "function" ? "utils" : "constants"
        )
      }\n` +
        `export const ${name} = Wire.${coreValues.get(value)}`
    } else if (typeof value === "function") {
      throw new Error(`${module}.${name}: a function that is not the core's is not translated`)
    } else {
      text = `${doc(`\`${name}\`, as \`@community-api/schema/${module}\` exports it.`, "constants")}\n` +
        `export const ${name} = ${data(value, `${module}.${name}`)}`
    }
    declarations.set(name, { text, before: emitter.before })
  }
  // A module's namespace lists its exports by name; a schema is written after those it refers to.
  const written: Array<string> = []
  const done = new Set<string>()
  const write = (name: string) => {
    if (done.has(name)) return
    done.add(name)
    const declaration = declarations.get(name)!
    for (const dependency of declaration.before) write(dependency)
    written.push(declaration.text)
  }
  for (const name of declarations.keys()) write(name)
  return `${header(`The \`${module}\` resources.`)}\n${importsOf(uses, module)}\n\n${written.join("\n\n")}\n`
}

/** The sections: each operation's schemas, over the core's declaration of it. */
const sectionsModule = (): string => {
  const emitter: Emitter = { uses: new Set(), module: undefined, before: new Set() }
  const parts: Array<string> = []
  for (const [section, operations] of Object.entries(Operations.sections)) {
    const entries = Object.entries(operations as Record<string, Operation.Any>).map(([method, op]) => {
      const at = `${section}/${method}`
      const fields = [
        `payload: ${emit(op.payload.ast, `${at} payload`, emitter, false, "    ")}`,
        `success: ${emit(op.success.ast, `${at} success`, emitter, false, "    ")}`,
        ...(op.item === undefined ? [] : [`item: ${emit(op.item.ast, `${at} item`, emitter, false, "    ")}`]),
        ...(op.assumption === undefined ? [] : [`assumption: ${JSON.stringify(op.assumption)}`])
      ]
      return `  ${key(method)}: {\n    ${fields.join(",\n    ")}\n  }`
    })
    parts.push(
      `${doc(`\`${section}/*\`: the section's declarations are the core's; these are their schemas.`, "constants")}\n` +
        `export const ${section} = Operation.withSchemas(Core.${section}, {\n${entries.join(",\n")}\n})`
    )
  }
  parts.push(
    `${doc("Every section, in the contract's order.", "constants")}\nexport const sections = {\n${
      Object.keys(Operations.sections).map((section) => `  ${section}`).join(",\n")
    }\n}`
  )
  return `${header("Every section of the contract: its operations, keyed by method.")}\n` +
    `import * as Core from "@community-api/core/Operations"\n${importsOf(emitter.uses)}\n` +
    `import * as Operation from "../Operation.js"\n\n${parts.join("\n\n")}\n`
}

/** The tag of an error class of this line. */
const tagOf = (ErrorClass: new(args: never) => { readonly _tag: string }, code: number) =>
  new ErrorClass({ code, text: "", operation: "" } as never)._tag

const errorClass = (tag: string, code: string, what: string) =>
  `${doc(what, "errors")}\n` +
  `export class ${tag} extends Schema.TaggedError<${tag}>()("${tag}", {\n` +
  `  code: ${code},\n  ...fields\n}) {\n  override get message() {\n    return describe(this)\n  }\n}`

/** The error classes: one per error code, tagged as this line tags it, and the unexpected code's. */
const errorsModule = (): string => {
  const codes = Object.entries(ApiError.byCode).map(([code, ErrorClass]) => ({
    code,
    tag: tagOf(ErrorClass, Number(code))
  }))
  const classes = codes.map(({ code, tag }) =>
    errorClass(tag, `Schema.Literal(${code})`, `Error ${code}, as \`@community-api/schema/ApiError\` declares it.`)
  )
  classes.push(errorClass(
    tagOf(ApiError.UnexpectedApiError, 0),
    "Schema.Int",
    "An error code the operation does not declare, or no code the contract knows."
  ))
  return `${header("The API's errors, one class per error code.")}\n` +
    `import { Schema } from "effect"\nimport { describe, fields } from "../internal/errors.js"\n\n${
      classes.join("\n\n")
    }\n\n` +
    `${doc("The error class of each code.", "constants")}\nexport const byCode = {\n${
      codes.map(({ code, tag }) => `  ${code}: ${tag}`).join(",\n")
    }\n} as const\n`
}

/** Every file, by its name under {@link targetDirectory}. */
export const files = (): Record<string, string> => ({
  ...Object.fromEntries(
    Object.entries(resourceModules).map(([module, exports]) => [`${module}.ts`, resourceModule(module, exports)])
  ),
  "Sections.ts": sectionsModule(),
  "Errors.ts": errorsModule()
})

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  mkdirSync(targetDirectory, { recursive: true })
  for (const [name, text] of Object.entries(files())) writeFileSync(`${targetDirectory}${name}`, text)
  console.log(`effect4: wrote ${Object.keys(files()).length} files in ${targetDirectory}`)
}
