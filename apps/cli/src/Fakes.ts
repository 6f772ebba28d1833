/**
 * Deterministic fakes for what a recorded fixture must not carry: names, phone numbers, e-mail
 * addresses and free text. A fake keeps the shape of what it replaces: its length, the case of each
 * letter and its alphabet (Cyrillic stays Cyrillic, a vowel stays a vowel, so the words still read as
 * words), each digit a digit, and everything else (spaces, punctuation, `@`, `+`, `-`, quotes) as it
 * was. A phone number still looks like a phone number, an e-mail address like an e-mail address, and a
 * text is as long as before, so a service tested against the fixture meets the same kinds of values.
 *
 * The fake of a text depends only on the text and the seed: equal texts stay equal (an employee's
 * name in every community), and the same account recorded twice with the same seed gives the same
 * file. Ids, counts, flags and times are not personal data and are kept as they are.
 *
 * @since 0.1.0
 */
import type * as Fixture from "@community-api/server/Fixture"
import * as SeededRandom from "@community-api/server/SeededRandom"

interface Alphabet {
  readonly test: RegExp
  readonly vowels: string
  readonly consonants: string
  readonly isVowel: (lower: string) => boolean
}

const cyrillic: Alphabet = {
  test: /[а-яё]/i,
  vowels: "аеиоуыэюя",
  consonants: "бвгджзклмнпрстфхцчшщ",
  isVowel: (lower) => "аеёиоуыэюя".includes(lower)
}

// Any other letter is replaced by a Latin one: an accented or foreign name is not kept either.
const latin: Alphabet = {
  test: /\p{L}/u,
  vowels: "aeiou",
  consonants: "bcdfghjklmnprstvz",
  isVowel: (lower) => "aeiouy".includes(lower)
}

/** FNV-1a over the UTF-16 code units, so that the fake of a text does not depend on its place in the file. */
const hash = (text: string, salt: number): number => {
  let h = 0x811C9DC5 ^ salt
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i)
    h = Math.imul(h, 0x01000193)
  }
  return h >>> 0
}

const pick = (random: SeededRandom.SeededRandom, letters: string) => letters[Math.floor(random() * letters.length)]!

const fakeChar = (random: SeededRandom.SeededRandom, char: string): string => {
  if (/[0-9]/.test(char)) return String(Math.floor(random() * 10))
  const alphabet = cyrillic.test.test(char) ? cyrillic : latin.test.test(char) ? latin : undefined
  if (alphabet === undefined) return char
  const lower = char.toLowerCase()
  const letter = pick(random, alphabet.isVowel(lower) ? alphabet.vowels : alphabet.consonants)
  return lower === char ? letter : letter.toUpperCase()
}

const hasContent = (text: string) => /[\p{L}0-9]/u.test(text)

/**
 * Makes up texts with a seed.
 *
 * @since 0.1.0
 * @category models
 */
export interface Fakes {
  /** The fake of a name, a phone number, an e-mail address or any free text, of the same shape. */
  readonly text: (original: string) => string
  /** The fake of an address: the scheme and the file extension kept, the rest made up as {@link Fakes.text}. */
  readonly url: (original: string) => string
  /** A value of unknown shape (a bot's start parameter) with each of its texts faked, ids kept. */
  readonly unknown: (original: unknown) => unknown
}

/** An object id of the API (24 hexadecimal characters): an id, not a text, so it is kept. */
const isObjectId = (text: string) => /^[0-9a-f]{24}$/i.test(text)

/**
 * The fakes of `seed`.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (seed: number): Fakes => {
  const text = (original: string): string => {
    // Nothing to hide in a text of spaces and punctuation alone (and no fake could differ from it).
    if (!hasContent(original)) return original
    for (let salt = seed;; salt++) {
      const random = SeededRandom.make(hash(original, salt))
      const fake = Array.from(original, (char) => fakeChar(random, char)).join("")
      if (fake !== original) return fake
    }
  }
  const url = (original: string): string => {
    const match = /^([a-z][a-z0-9+.-]*:\/\/)?(.*?)(\.[a-z0-9]{1,5})?$/i.exec(original)!
    const [, scheme = "", rest = "", extension = ""] = match
    return `${scheme}${text(rest)}${extension}`
  }
  const unknown = (original: unknown): unknown => {
    if (typeof original === "string") return isObjectId(original) ? original : text(original)
    if (Array.isArray(original)) return original.map(unknown)
    if (original !== null && typeof original === "object") {
      return Object.fromEntries(Object.entries(original).map(([key, value]) => [key, unknown(value)]))
    }
    return original
  }
  return { text, url, unknown }
}

/**
 * A fixture in its JSON form with every list present, as a recording writes it.
 *
 * @since 0.1.0
 * @category models
 */
export type Complete = {
  readonly [Key in keyof Fixture.FixtureEncoded]-?: Exclude<Fixture.FixtureEncoded[Key], undefined>
}

/**
 * A fixture with every name, phone number, e-mail address and free text replaced by its fake: the
 * users' names; the names and photos of communities; the names of bots and the titles of their steps,
 * the texts inside a bot's start parameter; the titles of mailings; the names of lists; the titles and
 * values of variables and community variables; the titles and addresses of landings. Ids, counts,
 * flags, times, channels, roles, kinds, a variable's short name (the key a service reads it by) and
 * the tokens are kept, so every relation and every count of the fixture stays as it was.
 *
 * @since 0.1.0
 * @category utils
 */
export const fixture = (data: Complete, fakes: Fakes): Complete => {
  const { text, unknown, url } = fakes
  return {
    ...data,
    users: data.users.map((user) => ({ ...user, name: text(user.name) })),
    communities: data.communities.map((c) => ({
      ...c,
      name: text(c.name),
      ...(c.photo === undefined || c.photo === "" ? {} : { photo: url(c.photo) })
    })),
    bots: data.bots.map((bot) => ({
      ...bot,
      name: text(bot.name),
      ...(bot.activity_param === undefined ? {} : { activity_param: unknown(bot.activity_param) })
    })),
    botSubscribers: data.botSubscribers.map((entry) => ({
      ...entry,
      ...(entry.steps === undefined ? {} : { steps: entry.steps.map((step) => ({ ...step, title: text(step.title) })) })
    })),
    mailings: data.mailings.map((mailing) => ({ ...mailing, title: text(mailing.title) })),
    lists: data.lists.map((list) => ({ ...list, name: text(list.name) })),
    variables: data.variables.map((variable) => ({
      ...variable,
      title: text(variable.title),
      ...(variable.values === undefined ? {} : {
        values: Object.fromEntries(Object.entries(variable.values).map(([uid, value]) => [uid, text(value)] as const))
      })
    })),
    communityVariables: data.communityVariables.map((variable) => ({
      ...variable,
      title: text(variable.title),
      ...(variable.value === undefined ? {} : { value: text(variable.value) })
    })),
    landings: data.landings.map((landing) => ({ ...landing, title: text(landing.title), url: url(landing.url) }))
  }
}
