/** Stable response codes. 0 is success; every other code has a message in both languages. */
export const ErrorCode = {
  OK: 0,
  /** The session is missing, malformed, expired or revoked (SPEC.md §8). */
  SESSION_EXPIRED: 800,
  VALIDATION: 1001,
  NOT_FOUND: 1002,
  FORBIDDEN: 1003,
  CONFLICT: 1004,
  RATE_LIMITED: 1005,
  LOGIN_FAILED: 1006,
  NOT_AVAILABLE: 1007,
  STORE_NOT_SET: 1008,
  BAD_FILE: 1009,
  DELIVERY_UNAVAILABLE: 1010,
  IN_USE: 1011,
  TOO_MANY_REQUESTS: 1012,
  IMPORT_FAILED: 1013,
  /** The request body is over the server's limit ({detail} names it). */
  TOO_LARGE: 1014,
  /** A costly call (import, large preview) is refused while others of its kind run; try again shortly. */
  BUSY: 1015,
  /** Integration API (/open/v1): the ck header is missing, unknown, or a key renewed since. */
  OPEN_KEY_INVALID: 1016,
  /** Integration API: the signature is missing, malformed or does not match the request. */
  OPEN_SIGNATURE_INVALID: 1017,
  /** Integration API: the timestamp is missing or more than 5 minutes from the server's clock. */
  OPEN_TIMESTAMP_INVALID: 1018,
  /** Integration API: the nonce was used before with this key (a replayed request). */
  OPEN_NONCE_REPLAYED: 1019,
  /** Integration API: this key made too many calls in the last minute ({detail} seconds to wait). */
  OPEN_RATE_LIMITED: 1020,
  INTERNAL: 1500,
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

export const LANGUAGES = ['zh-CN', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'zh-CN';

export type Messages = Record<Language, string>;

/** Messages per code. `{field}` and `{detail}` are filled in where the code names them. */
export const ERROR_MESSAGES: Record<ErrorCode, Messages> = {
  0: { 'zh-CN': '成功', en: 'Success' },
  800: { 'zh-CN': '登录已过期，请重新登录', en: 'Your session has expired, please log in again' },
  1001: { 'zh-CN': '{field}：{detail}', en: '{field}: {detail}' },
  1002: { 'zh-CN': '记录不存在', en: 'Not found' },
  1003: { 'zh-CN': '没有权限执行此操作', en: 'You do not have permission to do this' },
  1004: { 'zh-CN': '记录已存在：{detail}', en: 'Already exists: {detail}' },
  1005: {
    'zh-CN': '登录失败次数过多，请 {detail} 秒后再试',
    en: 'Too many failed logins, try again in {detail} seconds',
  },
  1006: { 'zh-CN': '用户名或密码错误', en: 'Wrong username or password' },
  1007: { 'zh-CN': '该功能暂未开放', en: 'This function is not available yet' },
  1008: { 'zh-CN': '请先设置门店', en: 'Please set store first' },
  1009: { 'zh-CN': '文件无效：{detail}', en: 'Invalid file: {detail}' },
  1010: {
    'zh-CN': '请求已记录，但下发通道尚未开放',
    en: 'Request recorded, but delivery to tags is not available yet',
  },
  1011: { 'zh-CN': '仍在使用中，无法删除：{detail}', en: 'Still in use, cannot delete: {detail}' },
  1012: { 'zh-CN': '请求过于频繁，请稍后再试', en: 'Too many requests, please slow down' },
  1013: { 'zh-CN': '导入失败，没有写入任何数据', en: 'Import failed, nothing was written' },
  1014: { 'zh-CN': '请求过大，上限为 {detail}', en: 'Request too large: the limit is {detail}' },
  1015: { 'zh-CN': '服务器正忙：{detail}，请稍后再试', en: 'Busy: {detail}, please try again shortly' },
  1016: { 'zh-CN': 'API 密钥 (ck) 缺失、无效或已重新生成', en: 'The API key (ck) is missing, unknown or was renewed' },
  1017: { 'zh-CN': '签名无效：与请求内容不符', en: 'Invalid signature: it does not match the request' },
  1018: {
    'zh-CN': '时间戳缺失或与服务器时间相差超过 5 分钟',
    en: 'The timestamp is missing or more than 5 minutes from the server time',
  },
  1019: { 'zh-CN': '该 nonce 已使用过（重放的请求）', en: 'This nonce was used before (a replayed request)' },
  1020: {
    'zh-CN': '该 API 密钥调用过于频繁，请 {detail} 秒后再试',
    en: 'Too many calls with this API key, try again in {detail} seconds',
  },
  1500: { 'zh-CN': '服务器内部错误', en: 'Internal server error' },
};

/** Details used inside validation messages, so a field's problem reads well in both languages. */
export const VALIDATION_DETAILS: Record<string, Messages> = {
  required: { 'zh-CN': '不能为空', en: 'cannot be empty' },
  invalid: { 'zh-CN': '格式不正确', en: 'has the wrong format' },
  tooLong: { 'zh-CN': '过长', en: 'is too long' },
  tooSmall: { 'zh-CN': '过小', en: 'is too small' },
  tooBig: { 'zh-CN': '过大', en: 'is too large' },
  lineBreak: { 'zh-CN': '不允许换行', en: 'no line breaks allowed' },
  nul: { 'zh-CN': '不能包含空字符 (U+0000)', en: 'cannot contain the NUL character (U+0000)' },
  mismatch: { 'zh-CN': '两次输入的密码不一致', en: 'passwords do not match' },
  role: { 'zh-CN': '请选择角色', en: 'please select a role' },
  store: { 'zh-CN': '请选择门店', en: 'please select a store' },
  digest: { 'zh-CN': '必须是密码摘要', en: 'must be a password digest' },
  appid: { 'zh-CN': '应为 wx 加 16 位十六进制字符', en: 'must be wx followed by 16 hexadecimal characters' },
  modelOrId: { 'zh-CN': '请选择型号或填写 ID', en: 'please select a model or an ID' },
  duplicate: { 'zh-CN': '包含重复的项', en: 'lists the same item twice' },
  body: { 'zh-CN': '请求体必须是 JSON 对象', en: 'the request body must be a JSON object' },
  fileMissing: { 'zh-CN': '请在字段 file 中上传一个文件', en: 'send one file in the multipart field file' },
  fileType: { 'zh-CN': '头像只能是 JPG 或 PNG 格式', en: 'the avatar must be a JPG or PNG image' },
  fileSize: { 'zh-CN': '头像大小不能超过 2MB', en: 'the avatar cannot exceed 2MB' },
  notUpgradeFile: { 'zh-CN': '不是升级文件', en: 'not an upgrade file' },
  oneFile: { 'zh-CN': '只能选择一个文件', en: 'only one file can be selected' },
  firmwareSize: { 'zh-CN': '固件文件过大', en: 'the firmware file is too large' },
  notFont: {
    'zh-CN': '不是字体文件（支持 TTF、OTF 和 WOFF2）',
    en: 'not a font file (TTF, OTF and WOFF2 are supported)',
  },
  fontBroken: { 'zh-CN': '字体文件已损坏，无法读取', en: 'the font file is damaged and cannot be read' },
  fontOutlines: {
    'zh-CN': '不支持可变字体（CFF2 轮廓），请使用静态的 TTF、OTF 或 WOFF2 字体',
    en: 'variable fonts (CFF2 outlines) are not supported: use a static TTF, OTF or WOFF2 font',
  },
  fontSize: { 'zh-CN': '字体文件不能超过 20MB', en: 'the font file cannot exceed 20MB' },
  fontFamilyBuiltIn: { 'zh-CN': '与内置字体同名，请换一个名称', en: 'is the name of a built-in font, choose another' },
  fontFamilyNone: { 'zh-CN': '字体文件没有名称，请填写字体名称', en: 'the font file names no family, please give one' },
  firmwareKind: { 'zh-CN': '固件类型与升级对象不符', en: 'the firmware is not for this kind of device' },
  self: { 'zh-CN': '不能对自己的账号执行此操作', en: 'not allowed on your own account' },
  roleNotHeld: { 'zh-CN': '不是你可以使用的角色', en: 'is not a role you may act as' },
  importBusy: { 'zh-CN': '本商户已有导入正在进行', en: 'other imports of this tenant are running' },
  notPending: { 'zh-CN': '已生效或已取消，不能再修改', en: 'has already taken effect or been cancelled' },
  promoClosed: { 'zh-CN': '促销已结束或已取消，不能再修改', en: 'the promotion has ended or been cancelled' },
  beforeStart: { 'zh-CN': '结束时间应晚于开始时间', en: 'must be later than the start' },
  sameTime: { 'zh-CN': '结束时间不能与开始时间相同', en: 'cannot be the same as the start' },
  pageMissing: { 'zh-CN': '模板没有这一页', en: 'the template has no such page' },
  previewBusy: { 'zh-CN': '已有大尺寸预览正在生成', en: 'other large previews are being drawn' },
  exportBusy: { 'zh-CN': '本商户已有导出正在进行', en: 'other exports of this tenant are running' },
  templateSize: {
    'zh-CN': '模板尺寸与标签型号的屏幕尺寸不符',
    en: "the template's size does not match the tag model's screen",
  },
  templateColours: { 'zh-CN': '模板使用了标签屏幕无法显示的颜色', en: 'the template uses colours the tag cannot show' },
  command: {
    'zh-CN': '不是允许的基站命令（status、ping、scan、channel、log tail [行数]、reboot）',
    en: 'is not an allowed station command (status, ping, scan, channel, log tail [n], reboot)',
  },
  cmdSession: { 'zh-CN': '命令窗口已关闭，请重新打开', en: 'the command window is closed, open it again' },
  stationOffline: { 'zh-CN': '基站不在线', en: 'the base station is offline' },
  apUrl: {
    'zh-CN': '应为接入点地址，形如 http://主机[:端口]',
    en: "must be the access point's address, http://HOST[:PORT]",
  },
  apAddress: {
    'zh-CN': '不能指向链路本地、组播等保留地址或本服务器',
    en: 'cannot point at a link-local, multicast or other reserved address, or at this server',
  },
  stationKind: {
    'zh-CN': '此类基站不支持该操作（OpenEPaperLink 接入点由服务器持有密钥）',
    en: 'not for this kind of base station (the server holds an OpenEPaperLink access point’s secret)',
  },
  callbackUrl: {
    'zh-CN': '应为 http:// 或 https:// 开头的地址',
    en: 'must be an address starting with http:// or https://',
  },
  callbackCredentials: {
    'zh-CN': '地址中不能包含用户名或密码',
    en: 'cannot contain a user name or password',
  },
  callbackUnresolved: { 'zh-CN': '无法解析该主机名', en: 'its host name could not be resolved' },
  callbackAddress: {
    'zh-CN': '不能指向本服务器、本机、内网或链路本地地址',
    en: 'cannot point at this server, the local machine, a private network or a link-local address',
  },
  callbackNone: { 'zh-CN': '请先设置回调地址', en: 'please set a callback URL first' },
};

/**
 * Code 1002 naming what was looked for (`detail` the kind, `value` what the user typed or
 * scanned), so a clerk who scanned an unknown barcode reads which one.
 */
export const NOT_FOUND_DETAILS: Record<string, Messages> = {
  barcode: { 'zh-CN': '没有条码为 {value} 的商品', en: 'No product has the barcode {value}' },
  tag: { 'zh-CN': '当前门店没有 ID 为 {value} 的价签', en: 'No tag with the ID {value} in the current store' },
  shownScreen: { 'zh-CN': '价签 {value} 还没有显示过已知的画面', en: 'Tag {value} has not shown a known label yet' },
  desiredScreen: { 'zh-CN': '价签 {value} 没有待显示的画面', en: 'Tag {value} has no label to show' },
};

export function formatMessage(code: ErrorCode, lang: Language, vars: Record<string, string> = {}): string {
  const named = code === ErrorCode.NOT_FOUND && vars.detail ? NOT_FOUND_DETAILS[vars.detail] : undefined;
  const template = named?.[lang] ?? ERROR_MESSAGES[code]?.[lang] ?? ERROR_MESSAGES[1500][lang];
  return template.replace(/\{(\w+)\}/g, (_, key: string) => vars[key] ?? '');
}

/** Picks a supported language from an Accept-Language style header; zh-CN when nothing matches. */
export function pickLanguage(header: string | undefined | null): Language {
  if (!header) return DEFAULT_LANGUAGE;
  for (const part of header.split(',')) {
    const tag = part.split(';')[0]?.trim().toLowerCase() ?? '';
    if (tag.startsWith('en')) return 'en';
    if (tag.startsWith('zh')) return 'zh-CN';
  }
  return DEFAULT_LANGUAGE;
}
