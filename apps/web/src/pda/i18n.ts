/** The handheld's words in both languages; the language is the console's (localStorage `change-language`). */
export type Lang = 'zh-CN' | 'en';

const LANGUAGE_KEY = 'change-language';

const en = {
  title: 'Handheld',
  signIn: 'Sign in',
  username: 'User name',
  password: 'Password',
  signingIn: 'Signing in…',
  signOut: 'Sign out',
  language: '中文',
  store: 'Store',
  chooseStore: 'Choose a store to work in',
  noStore: 'Your account has no store. Ask an administrator to assign one.',
  noAccess: 'Your role cannot use the handheld.',
  tabBind: 'Bind',
  tabUnbind: 'Unbind',
  tabLookup: 'Look up',
  tabFailed: 'Failed',
  scanTag: 'Scan the tag',
  scanProduct: 'Scan the product barcode',
  scanHint: 'Use the scanner, the camera, or type the code and press Go.',
  codeTag: 'Tag ID',
  codeProduct: 'Product barcode',
  go: 'Go',
  camera: 'Camera',
  cameraTitle: 'Point the camera at a barcode',
  cameraClose: 'Close',
  cameraUnavailable: 'The camera cannot be used here. Open this page over HTTPS, allow the camera, or use a scanner.',
  cameraLoading: 'Starting the camera…',
  notTagId: 'That is not a tag ID (8 to 16 characters 0–9, A–F): {{code}}',
  notBarcode: 'That is not a product barcode.',
  tagNotFound: 'No tag {{code}} in this store.',
  step1: '1. Tag',
  step2: '2. Product',
  bound: 'Bound to {{name}}',
  startOver: 'Start over',
  nextHint: 'Scan the next tag to bind another.',
  unbind: 'Unbind',
  unbound: 'Tag {{hw}} is unbound.',
  notBound: 'This tag shows no product.',
  flash: 'Flash LED',
  flashSent: 'The tag will flash at its next check-in.',
  flashDone: 'The tag flashed its LED.',
  flashFailed: 'The tag did not flash: it did not answer.',
  showPage: 'Show page',
  pageNumber: 'Page',
  staySeconds: 'Stay (s)',
  pageSent: 'The tag will show the page at its next check-in, then page 1 again after the stay.',
  pageDone: 'The tag shows the page.',
  pageFailed: 'The tag did not switch: its label has no such page, or it did not answer.',
  refresh: 'Reload',
  failedTitle: 'Tags whose last update failed',
  failedNone: 'No tag failed its last update.',
  failedCount: 'Total: {{n}}',
  showing: 'Showing now',
  comingNext: 'About to show',
  noScreen: 'No picture yet',
  labelUpdating: 'Updating the label…',
  labelUpdated: 'Label updated',
  labelCurrent: 'Label up to date: the tag already shows this picture.',
  labelFailed: 'The label could not be updated. The reason is under “Last update”.',
  labelWaiting: 'The tag takes the new label at its next check-in.',
  product: 'Product',
  noProduct: 'Not bound',
  status: 'Status',
  battery: 'Battery',
  signal: 'Signal',
  lastSeen: 'Last heard',
  never: 'never',
  lastUpdate: 'Last update',
  updateFailed: 'Failed: {{reason}}',
  updateOk: 'Done',
  updatePending: 'Waiting for the tag',
  price: 'Price',
  network: 'The server cannot be reached. Check the connection and try again.',
  expired: 'Your session has ended. Please sign in again.',
  forbiddenAction: 'Your role may not do this.',
  st_online: 'online',
  st_offline: 'offline',
  st_normal: 'normal',
  st_unknown: 'unknown',
  st_lost: 'tag lost',
  st_interrupted: 'communication interrupted',
  st_disconnected: 'abnormal disconnection',
} as const;

export type Key = keyof typeof en;

const zh: Record<Key, string> = {
  title: '手持终端',
  signIn: '登录',
  username: '用户名',
  password: '密码',
  signingIn: '正在登录…',
  signOut: '退出',
  language: 'EN',
  store: '门店',
  chooseStore: '请选择要操作的门店',
  noStore: '您的账号没有门店，请联系管理员分配。',
  noAccess: '您的角色不能使用手持终端。',
  tabBind: '绑定',
  tabUnbind: '解绑',
  tabLookup: '查询',
  tabFailed: '失败',
  scanTag: '请扫描价签',
  scanProduct: '请扫描商品条码',
  scanHint: '可用扫描枪、摄像头，或输入后点“确定”。',
  codeTag: '价签 ID',
  codeProduct: '商品条码',
  go: '确定',
  camera: '摄像头',
  cameraTitle: '将摄像头对准条码',
  cameraClose: '关闭',
  cameraUnavailable: '此处无法使用摄像头。请通过 HTTPS 打开本页并允许使用摄像头，或使用扫描枪。',
  cameraLoading: '正在打开摄像头…',
  notTagId: '这不是价签 ID（8 到 16 位 0–9、A–F）：{{code}}',
  notBarcode: '这不是商品条码。',
  tagNotFound: '本门店没有价签 {{code}}。',
  step1: '1. 价签',
  step2: '2. 商品',
  bound: '已绑定：{{name}}',
  startOver: '重新开始',
  nextHint: '扫描下一个价签继续绑定。',
  unbind: '解绑',
  unbound: '价签 {{hw}} 已解绑。',
  notBound: '该价签未绑定商品。',
  flash: '闪灯',
  flashSent: '价签将在下次唤醒时闪灯。',
  flashDone: '价签已闪灯。',
  flashFailed: '价签未闪灯：没有应答。',
  showPage: '显示页面',
  pageNumber: '页码',
  staySeconds: '停留（秒）',
  pageSent: '价签将在下次唤醒时显示该页，停留时间过后回到第 1 页。',
  pageDone: '价签已显示该页。',
  pageFailed: '价签未切换：标签没有该页，或没有应答。',
  refresh: '刷新',
  failedTitle: '最近一次更新失败的价签',
  failedNone: '没有更新失败的价签。',
  failedCount: '共 {{n}} 个',
  showing: '当前画面',
  comingNext: '即将显示',
  noScreen: '暂无画面',
  labelUpdating: '正在更新价签…',
  labelUpdated: '价签已更新',
  labelCurrent: '价签已是最新：当前画面即为新画面，无需更新。',
  labelFailed: '价签更新失败，原因见“最近更新”。',
  labelWaiting: '价签将在下次唤醒时显示新画面。',
  product: '商品',
  noProduct: '未绑定',
  status: '状态',
  battery: '电量',
  signal: '信号',
  lastSeen: '最后通讯',
  never: '从未',
  lastUpdate: '最近更新',
  updateFailed: '失败：{{reason}}',
  updateOk: '已完成',
  updatePending: '等待价签',
  price: '价格',
  network: '无法连接服务器，请检查网络后重试。',
  expired: '登录已过期，请重新登录。',
  forbiddenAction: '您的角色无权执行此操作。',
  st_online: '在线',
  st_offline: '离线',
  st_normal: '正常',
  st_unknown: '未知',
  st_lost: '标签丢失',
  st_interrupted: '通讯中断',
  st_disconnected: '异常断开',
};

const MESSAGES: Record<Lang, Record<Key, string>> = { en, 'zh-CN': zh };

export function storedLang(): Lang {
  try {
    return localStorage.getItem(LANGUAGE_KEY) === 'en' ? 'en' : 'zh-CN';
  } catch {
    return 'zh-CN';
  }
}

export function storeLang(lang: Lang): void {
  try {
    localStorage.setItem(LANGUAGE_KEY, lang);
  } catch {
    // Private mode: the choice lasts for this page only.
  }
}

export type T = (key: Key, vars?: Record<string, string | number>) => string;

export function translator(lang: Lang): T {
  const table = MESSAGES[lang];
  return (key, vars) => table[key].replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(vars?.[name] ?? ''));
}

/** Both tables have every key (a test reads this). */
export const LANGUAGES = MESSAGES;
