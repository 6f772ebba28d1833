/**
 * Every error text the reference server sends, in Russian, naming the cause as the spec's typical
 * texts do, and which parts of a request path may be shown anywhere (a log, a span, an error text).
 * User input quoted in a text is cut short, so a text never echoes a whole request, and anything that
 * looks like a token or key is not echoed at all. Both Effect lines' servers send these same texts.
 *
 * @since 0.1.0
 */
import * as Limits from "./Limits.js"
import * as Operations from "./Operations.js"

/**
 * Something that may be a token or a key: never echoed.
 *
 * @since 0.1.0
 * @category constants
 */
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
 *
 * @since 0.1.0
 * @category utils
 */
export const isShownSegment = (decoded: string): boolean =>
  decoded === "" || pathWords.has(decoded) || (plainWord.test(decoded) && !secretLike.test(decoded))

/**
 * A path segment percent-decoded, or `undefined` when its escapes are malformed.
 *
 * @since 0.1.0
 * @category utils
 */
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
 *
 * @since 0.1.0
 * @category utils
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

// Routing (1, 3). The path's segments arrive percent-decoded and are quoted only when they may be shown.

/**
 * Error 1: a path outside `/external-api/v2/{section}/{method}`.
 *
 * @since 0.1.0
 * @category constants
 */
export const unknownPath = "Неизвестный адрес: используйте /external-api/v2/{раздел}/{метод}"
/**
 * Error 1: the section or the method is empty.
 *
 * @since 0.1.0
 * @category constants
 */
export const missingSectionOrMethod = "Не указан раздел или метод"
/**
 * Error 1: no such section.
 *
 * @since 0.1.0
 * @category utils
 */
export const unknownSection = (section: string) => `Раздел ${quoteSegment(section)} не существует`
/**
 * Error 1: no such version of the API.
 *
 * @since 0.1.0
 * @category utils
 */
export const unknownVersion = (version: string) => `Неизвестная версия API ${quoteSegment(version)}`
/**
 * Error 3: no such method in the section.
 *
 * @since 0.1.0
 * @category utils
 */
export const unknownMethod = (section: string, method: string) =>
  `Метод ${quoteSegment(method)} не существует в разделе ${quoteSegment(section)}`
/**
 * Error 1: an HTTP method other than POST.
 *
 * @since 0.1.0
 * @category utils
 */
export const notPost = (method: string) => `HTTP-метод ${quote(method)} не поддерживается: используйте POST`

// Body (7)

/**
 * Error 7: the body is not a JSON object.
 *
 * @since 0.1.0
 * @category constants
 */
export const malformedJson = "Тело запроса не является корректным JSON-объектом"
/**
 * Error 7: a content type the server does not read.
 *
 * @since 0.1.0
 * @category utils
 */
export const unsupportedContentType = (type: string) => `Неподдерживаемый тип содержимого ${quote(type)}`
/**
 * Error 7: the body is larger than `bytes`.
 *
 * @since 0.1.0
 * @category utils
 */
export const bodyTooLarge = (bytes: number) => `Тело запроса больше ${bytes} байт`
/**
 * Error 7: the body could not be read.
 *
 * @since 0.1.0
 * @category constants
 */
export const unreadableBody = "Не удалось прочитать тело запроса"
/**
 * Error 7: parameters that are not UTF-8.
 *
 * @since 0.1.0
 * @category constants
 */
export const notUtf8 = "Параметры запроса не в кодировке UTF-8"
/**
 * Error 7: more than `max` parameter names.
 *
 * @since 0.1.0
 * @category utils
 */
export const tooManyParameters = (max: number) => `Слишком много параметров: не более ${max}`

// Token (4), key service (9)

/**
 * Error 4: no token or key.
 *
 * @since 0.1.0
 * @category constants
 */
export const tokenMissing = "Не передан токен доступа или ключ"
/**
 * Error 4: an unknown token.
 *
 * @since 0.1.0
 * @category constants
 */
export const tokenInvalid = "Неверный токен доступа"
/**
 * Error 4: an expired token.
 *
 * @since 0.1.0
 * @category constants
 */
export const tokenExpired = "Срок действия токена истёк"
/**
 * Error 4: a revoked token.
 *
 * @since 0.1.0
 * @category constants
 */
export const tokenRevoked = "Токен отозван"
/**
 * Error 4: a token issued for another product.
 *
 * @since 0.1.0
 * @category constants
 */
export const tokenOtherProduct = "Токен выдан для другого продукта"
/**
 * Error 4: the older account key, which version 2 does not take.
 *
 * @since 0.1.0
 * @category constants
 */
export const accountKeyInV2 = "Ключ аккаунта не принимается в версии 2: используйте токен"
/**
 * The sandbox's control routes: no control token.
 *
 * @since 0.1.0
 * @category constants
 */
export const controlTokenMissing = "Не передан токен управления песочницей"
/**
 * The sandbox's control routes: a wrong control token.
 *
 * @since 0.1.0
 * @category constants
 */
export const controlTokenInvalid = "Неверный токен управления песочницей"
/**
 * Error 9: the key service is unavailable.
 *
 * @since 0.1.0
 * @category constants
 */
export const keyServiceUnavailable = "Сервис проверки ключей временно недоступен, повторите запрос позже"

// Limits (5)

/**
 * Error 5: the request rate. The window is one second (`Limits.rateWindowMillis`), which the text says
 * in words.
 *
 * @since 0.1.0
 * @category constants
 */
export const tooManyRequests = `Слишком много запросов: не более ${Limits.requestsPerWindow} в секунду`
/**
 * Error 5: the creations of a calendar minute.
 *
 * @since 0.1.0
 * @category constants
 */
export const tooManyCreationsMinute = `Слишком много созданий: не более ${Limits.creationsPerMinute} в минуту`
/**
 * Error 5: the creations of a day.
 *
 * @since 0.1.0
 * @category constants
 */
export const tooManyCreationsDay = `Слишком много созданий: не более ${Limits.creationsPerDay} в сутки`

// Parameters (7)

/**
 * Error 7: a parameter whose name starts with `_`.
 *
 * @since 0.1.0
 * @category utils
 */
export const reservedParameter = (name: string) =>
  `Параметр ${quote(name)} зарезервирован: параметры, начинающиеся с «_», не принимаются`
/**
 * Error 7: a required parameter is missing.
 *
 * @since 0.1.0
 * @category utils
 */
export const missingParameter = (name: string) => `Не передан обязательный параметр ${name}`
/**
 * Error 7: a parameter longer than `max` characters.
 *
 * @since 0.1.0
 * @category utils
 */
export const tooLong = (name: string, max: number) => `Максимальная длина параметра ${name} — ${max} символов`
/**
 * Error 7: a character or sequence a short name may not hold.
 *
 * @since 0.1.0
 * @category utils
 */
export const forbiddenInName = (found: string) =>
  found.length === 1
    ? `Недопустимый символ "${found}" в коротком имени`
    : `Недопустимая последовательность "${found}" в коротком имени`
/**
 * Error 7: a wrong channel.
 *
 * @since 0.1.0
 * @category constants
 */
export const wrongChannel = "Неверный канал"
/**
 * Error 7: a wrong value of a parameter.
 *
 * @since 0.1.0
 * @category utils
 */
export const wrongParameter = (name: string) => `Неверное значение параметра ${name}`
/**
 * Error 7: a `group_id` present in several channels, sent without `channel`.
 *
 * @since 0.1.0
 * @category constants
 */
export const ambiguousGroup = "Сообщество с таким group_id есть в нескольких каналах: передайте channel"

// Objects (7)

/**
 * Error 7: no such community.
 *
 * @since 0.1.0
 * @category constants
 */
export const communityNotFound = "Сообщество не найдено"
/**
 * Error 7: no such bot.
 *
 * @since 0.1.0
 * @category constants
 */
export const botNotFound = "Бот не найден"
/**
 * Error 7: no such list.
 *
 * @since 0.1.0
 * @category constants
 */
export const listNotFound = "Список не найден"
/**
 * Error 7: no such variable.
 *
 * @since 0.1.0
 * @category constants
 */
export const variableNotFound = "Переменная не найдена"
/**
 * Error 7: no such subscriber.
 *
 * @since 0.1.0
 * @category constants
 */
export const subscriberNotFound = "Подписчик не найден"
/**
 * Error 7: no such mailing.
 *
 * @since 0.1.0
 * @category constants
 */
export const mailingNotFound = "Рассылка не найдена"
/**
 * Error 7: a variable with that short name exists.
 *
 * @since 0.1.0
 * @category constants
 */
export const variableExists = "Переменная с таким коротким именем уже существует"

// Access (8), action (6), internal (101)

/**
 * Error 8: no access to the community.
 *
 * @since 0.1.0
 * @category constants
 */
export const noCommunityAccess = "Нет доступа к сообществу"
/**
 * Error 8: the caller's roles do not open the operation.
 *
 * @since 0.1.0
 * @category constants
 */
export const noRole = "Нет доступа к управлению объектом: не хватает роли"
/**
 * Error 8: enabling a bot in an archived community.
 *
 * @since 0.1.0
 * @category constants
 */
export const archivedCommunity = "Сообщество в архиве: включить бота нельзя"
/**
 * Error 6: a bot that cannot be enabled.
 *
 * @since 0.1.0
 * @category constants
 */
export const botCannotBeEnabled = "Не удалось включить бота: мини-лендинг, подписка на который запускает бота, удалён"
/**
 * Error 6: an operation the reference server does not model.
 *
 * @since 0.1.0
 * @category utils
 */
export const notModelled = (path: string) => `Метод ${path} не моделируется эталонным сервером`
/**
 * Error 101: a failure inside the server, with no internals.
 *
 * @since 0.1.0
 * @category constants
 */
export const internalError = "Внутренняя ошибка сервера"

/**
 * Display names of roles: they may change, the keys may not.
 *
 * @since 0.1.0
 * @category constants
 */
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

/**
 * Names of mailing statuses.
 *
 * @since 0.1.0
 * @category constants
 */
export const statusNames: Record<number, string> = {
  0: "Ожидает отправки",
  1: "Отправляется",
  2: "Приостановлена",
  3: "Завершена",
  4: "Черновик",
  6: "В архиве",
  7: "Ожидает остановки"
}
