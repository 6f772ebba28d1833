/**
 * Every error text the server sends, in Russian, naming the cause as the spec's typical texts do (C6).
 * User input quoted in a text is cut short, so a text never echoes a whole request, and anything that
 * looks like a token or key is not echoed at all.
 *
 * @internal
 */
import { Limits } from "@community-api/schema"

/** Something that may be a token or a key: never echoed. */
export const secretLike = /thp_|lhp_|tha_|[0-9a-f]{24,}/i

/**
 * A request path as it may be logged or traced: a segment that looks like a token or key (a caller
 * who put it in the address by mistake) is masked.
 */
export const maskPath = (path: string): string =>
  path.split("/").map((segment) => secretLike.test(segment) ? "«…»" : segment).join("/")

/** Tells whether a URL may carry a secret: a query string (`api_key`) or a token-like segment. */
export const mayCarrySecret = (url: string): boolean => url.includes("?") || secretLike.test(url)

const quote = (value: string): string =>
  secretLike.test(value) ? "«…»" : `«${value.length > 40 ? `${value.slice(0, 40)}…` : value}»`

// Routing (1, 3)
export const unknownPath = "Неизвестный адрес: используйте /external-api/v2/{раздел}/{метод}"
export const missingSectionOrMethod = "Не указан раздел или метод"
export const unknownSection = (section: string) => `Раздел ${quote(section)} не существует`
export const unknownVersion = (version: string) => `Неизвестная версия API ${quote(version)}`
export const unknownMethod = (section: string, method: string) =>
  `Метод ${quote(method)} не существует в разделе ${quote(section)}`
export const notPost = (method: string) => `HTTP-метод ${quote(method)} не поддерживается: используйте POST`

// Body (7)
export const malformedJson = "Тело запроса не является корректным JSON-объектом"
export const unsupportedContentType = (type: string) => `Неподдерживаемый тип содержимого ${quote(type)}`
export const bodyTooLarge = (bytes: number) => `Тело запроса больше ${bytes} байт`
export const unreadableBody = "Не удалось прочитать тело запроса"

// Token (4), key service (9)
export const tokenMissing = "Не передан токен доступа или ключ"
export const tokenInvalid = "Неверный токен доступа"
export const tokenExpired = "Срок действия токена истёк"
export const tokenRevoked = "Токен отозван"
export const tokenOtherProduct = "Токен выдан для другого продукта"
export const accountKeyInV2 = "Ключ аккаунта не принимается в версии 2: используйте токен"
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
