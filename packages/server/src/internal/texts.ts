/**
 * Every error text the server sends, in Russian, naming the cause as the spec's typical texts do (C6).
 * User input quoted in a text is cut short, so a text never echoes a whole request, and anything that
 * looks like a token or key is not echoed at all.
 *
 * @internal
 */
import { Limits, Operations } from "@community-api/schema"

/** Something that may be a token or a key: never echoed. */
export const secretLike = /thp_|lhp_|tha_|[0-9a-f]{24,}/i

/** The words of the API's own paths: `external-api`, every section and every method of the contract. */
const pathWords: ReadonlySet<string> = new Set(
  ["external-api", ...Operations.all.flatMap((op) => [op.section, op.method])]
)

/**
 * A word that cannot be a credential: letters only (every token has a `_` after its prefix and every
 * key has digits), or a version segment such as `v3`.
 */
const plainWord = /^(?:[A-Za-z]{1,24}|[vV]\d{1,4})$/

/**
 * Whether a path segment, percent-decoded, may be written anywhere (a log, a span, an error text):
 * empty, a word of the API's paths, or a plain word. Anything else is what a caller put in the
 * address, maybe a token: it is never shown.
 */
export const isShownSegment = (decoded: string): boolean =>
  decoded === "" || pathWords.has(decoded) || (plainWord.test(decoded) && !secretLike.test(decoded))

/** A path segment percent-decoded, or `undefined` when its escapes are malformed. */
export const decodeSegment = (segment: string): string | undefined => {
  if (!segment.includes("%")) return segment
  try {
    return decodeURIComponent(segment)
  } catch {
    return undefined
  }
}

/**
 * A request path as it may be logged or traced: each segment percent-decoded, and shown only when
 * {@link isShownSegment} allows; any other segment (`/%74hp_…/me` included) is masked.
 */
export const shownPath = (path: string): string =>
  path.split("/").map((segment) => {
    const decoded = decodeSegment(segment)
    return decoded !== undefined && isShownSegment(decoded) ? decoded : "«…»"
  }).join("/")

const quote = (value: string): string =>
  secretLike.test(value) ? "«…»" : `«${value.length > 40 ? `${value.slice(0, 40)}…` : value}»`

/** A decoded path segment as an error text may quote it. */
const quoteSegment = (decoded: string): string => isShownSegment(decoded) ? `«${decoded}»` : "«…»"

// Routing (1, 3)
export const unknownPath = "Неизвестный адрес: используйте /external-api/v2/{раздел}/{метод}"
export const missingSectionOrMethod = "Не указан раздел или метод"
// The path's segments arrive percent-decoded and are quoted only when they may be shown.
export const unknownSection = (section: string) => `Раздел ${quoteSegment(section)} не существует`
export const unknownVersion = (version: string) => `Неизвестная версия API ${quoteSegment(version)}`
export const unknownMethod = (section: string, method: string) =>
  `Метод ${quoteSegment(method)} не существует в разделе ${quoteSegment(section)}`
export const notPost = (method: string) => `HTTP-метод ${quote(method)} не поддерживается: используйте POST`

// Body (7)
export const malformedJson = "Тело запроса не является корректным JSON-объектом"
export const unsupportedContentType = (type: string) => `Неподдерживаемый тип содержимого ${quote(type)}`
export const bodyTooLarge = (bytes: number) => `Тело запроса больше ${bytes} байт`
export const unreadableBody = "Не удалось прочитать тело запроса"
export const notUtf8 = "Параметры запроса не в кодировке UTF-8"
export const tooManyParameters = (max: number) => `Слишком много параметров: не более ${max}`

// Token (4), key service (9)
export const tokenMissing = "Не передан токен доступа или ключ"
export const tokenInvalid = "Неверный токен доступа"
export const tokenExpired = "Срок действия токена истёк"
export const tokenRevoked = "Токен отозван"
export const tokenOtherProduct = "Токен выдан для другого продукта"
export const accountKeyInV2 = "Ключ аккаунта не принимается в версии 2: используйте токен"
export const controlTokenMissing = "Не передан токен управления песочницей"
export const controlTokenInvalid = "Неверный токен управления песочницей"
export const keyServiceUnavailable = "Сервис проверки ключей временно недоступен, повторите запрос позже"

// Limits (5)
// The rate window is one second (`Limits.rateWindowMillis`), which the text says in words.
export const tooManyRequests = `Слишком много запросов: не более ${Limits.requestsPerWindow} в секунду`
export const tooManyCreationsMinute = `Слишком много созданий: не более ${Limits.creationsPerMinute} в минуту`
export const tooManyCreationsDay = `Слишком много созданий: не более ${Limits.creationsPerDay} в сутки`

// Parameters (7)
export const reservedParameter = (name: string) =>
  `Параметр ${quote(name)} зарезервирован: параметры, начинающиеся с «_», не принимаются`
export const missingParameter = (name: string) => `Не передан обязательный параметр ${name}`
export const tooLong = (name: string, max: number) => `Максимальная длина параметра ${name} — ${max} символов`
export const forbiddenInName = (found: string) =>
  found.length === 1
    ? `Недопустимый символ "${found}" в коротком имени`
    : `Недопустимая последовательность "${found}" в коротком имени`
export const wrongChannel = "Неверный канал"
export const wrongParameter = (name: string) => `Неверное значение параметра ${name}`
export const ambiguousGroup = "Сообщество с таким group_id есть в нескольких каналах: передайте channel"

// Objects (7)
export const communityNotFound = "Сообщество не найдено"
export const botNotFound = "Бот не найден"
export const listNotFound = "Список не найден"
export const variableNotFound = "Переменная не найдена"
export const subscriberNotFound = "Подписчик не найден"
export const mailingNotFound = "Рассылка не найдена"
export const variableExists = "Переменная с таким коротким именем уже существует"

// Access (8), action (6), internal (101)
export const noCommunityAccess = "Нет доступа к сообществу"
export const noRole = "Нет доступа к управлению объектом: не хватает роли"
export const archivedCommunity = "Сообщество в архиве: включить бота нельзя"
export const botCannotBeEnabled = "Не удалось включить бота: мини-лендинг, подписка на который запускает бота, удалён"
export const notModelled = (path: string) => `Метод ${path} не моделируется эталонным сервером`
export const internalError = "Внутренняя ошибка сервера"

/** Display names of roles (R2): they may change, the keys may not. */
export const roleTitles: Record<string, string> = {
  admin: "Администратор",
  mailer: "Рассылки и чат-боты",
  users: "Пользователи",
  integrations: "Интеграции",
  stat: "Статистика",
  event: "Мероприятия",
  dogs: "Удаление заблокированных",
  crm: "Диалоги"
}

/** Names of mailing statuses (S5). */
export const statusNames: Record<number, string> = {
  0: "Ожидает отправки",
  1: "Отправляется",
  2: "Приостановлена",
  3: "Завершена",
  4: "Черновик",
  6: "В архиве",
  7: "Ожидает остановки"
}
