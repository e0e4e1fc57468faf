import type { Language, Messages } from '../errors';

/*
 * The system log in the reader's language (issue 27 item 1). The server writes each row's
 * message in English, the language of the process log an operator reads; a reader of the console
 * gets the event as a word and the message in their language. Each known message shape is
 * matched here and said again in Chinese; a message of no known shape is shown as written.
 */

/** Each event the server logs, as a word. */
export const SYS_EVENT_LABELS: Record<string, Messages> = {
  login: { 'zh-CN': '登录', en: 'Sign-in' },
  logout: { 'zh-CN': '退出登录', en: 'Sign-out' },
  'login.throttled': { 'zh-CN': '登录受限', en: 'Sign-in slowed down' },
  'station.online': { 'zh-CN': '基站上线', en: 'Station online' },
  'station.offline': { 'zh-CN': '基站离线', en: 'Station offline' },
  'station.connected': { 'zh-CN': '基站连接', en: 'Station connected' },
  'station.disconnected': { 'zh-CN': '基站断开', en: 'Station disconnected' },
  'station.flapping': { 'zh-CN': '基站频繁上下线', en: 'Station keeps reconnecting' },
  'station.bad_input': { 'zh-CN': '基站消息无效', en: 'Station sent bad data' },
  'station.clock_skew': { 'zh-CN': '基站时钟偏差', en: 'Station clock off' },
  'station.auth_failed': { 'zh-CN': '基站登录被拒', en: 'Station sign-in refused' },
  'station.publish_denied': { 'zh-CN': '基站发布被拒', en: 'Station message refused' },
  'station.subscribe_denied': { 'zh-CN': '基站订阅被拒', en: 'Station subscription refused' },
  'station.packet_too_large': { 'zh-CN': '基站数据包过大', en: 'Station packet too large' },
  'station.rate_limited': { 'zh-CN': '基站发送过快', en: 'Station sending too fast' },
  'station.takeover': { 'zh-CN': '基站重复连接', en: 'Station connected twice' },
  'tag.button': { 'zh-CN': '价签按键', en: 'Tag button pressed' },
  'tag.nfc': { 'zh-CN': '价签 NFC 唤醒', en: 'Tag woken by NFC' },
  'firmware.uploaded': { 'zh-CN': '固件上传', en: 'Firmware uploaded' },
  'firmware.queued': { 'zh-CN': '固件升级排队', en: 'Firmware upgrade queued' },
  'firmware.sent': { 'zh-CN': '固件已发送', en: 'Firmware sent' },
  'firmware.accepted': { 'zh-CN': '固件已接收', en: 'Firmware accepted' },
  'firmware.progress': { 'zh-CN': '固件下载中', en: 'Firmware downloading' },
  'firmware.installing': { 'zh-CN': '固件安装中', en: 'Firmware installing' },
  'firmware.done': { 'zh-CN': '固件升级完成', en: 'Firmware upgraded' },
  'firmware.failed': { 'zh-CN': '固件升级失败', en: 'Firmware upgrade failed' },
  'firmware.retry': { 'zh-CN': '固件升级重试', en: 'Firmware upgrade retried' },
  'firmware.cancelled': { 'zh-CN': '固件升级已停止', en: 'Firmware upgrade stopped' },
  'server.start': { 'zh-CN': '服务启动', en: 'Server started' },
  'server.stop': { 'zh-CN': '服务停止', en: 'Server stopping' },
  'server.error': { 'zh-CN': '服务错误', en: 'Server error' },
  'server.process_lost': { 'zh-CN': '服务进程丢失', en: 'Server process lost' },
};

/** The event as a word in the reader's language; an unknown event as written. */
export function sysEventName(event: string, lang: Language): string {
  return SYS_EVENT_LABELS[event]?.[lang] ?? event;
}

type Groups = Record<string, string>;
type Shape = [pattern: RegExp, zh: (g: Groups) => string];

/** Words inside messages: devices, reasons. */
const DEVICE_WORDS: Record<string, string> = { tag: '价签', 'base station': '基站', 'radio module': '射频模块' };
const PRESENCE_WHY: Record<string, string> = {
  connected: '已连接',
  reconnected: '已重新连接',
  'connection closed': '连接已关闭',
  hello: '已报到',
  heartbeat: '收到心跳',
};
const zhWhy = (why: string) => {
  const silent = /^no heartbeat for (\d+) intervals$/.exec(why);
  if (silent) return `连续 ${silent[1]} 个心跳周期无响应`;
  return PRESENCE_WHY[why] ?? why;
};
const zhVersion = (v: string) => (v === 'an unknown version' ? '未知版本' : v);
const zhFrom = (from: string) => (from === 'from several addresses' ? '（来自多个地址）' : `（来自 ${from.slice(5)}）`);

/** A firmware step after "<device>: firmware <version> ". */
const FIRMWARE_STEPS: Shape[] = [
  [/^sent to station (?<sn>\S+) \(attempt (?<n>\d+)\)$/, (g) => `已发送到基站 ${g.sn}（第 ${g.n} 次）`],
  [/^accepted by station (?<sn>\S+); downloading$/, (g) => `基站 ${g.sn} 已接收，正在下载`],
  [/^no longer held by station (?<sn>\S+): sent again$/, (g) => `基站 ${g.sn} 不再持有，已重新发送`],
  [/^(?<bytes>\d+) of (?<size>\d+) bytes at station (?<sn>\S+)$/, (g) => `基站 ${g.sn} 已传 ${g.bytes}/${g.size} 字节`],
  [
    /^transferred and verified; waiting for the tag to report its new version$/,
    () => '已传输并校验，等待价签报告新版本',
  ],
  [/^downloaded and verified; installing and restarting$/, () => '已下载并校验，正在安装并重启'],
  [/^installed: the device reports (?<v>.+)$/, (g) => `已安装：设备报告版本 ${g.v}`],
  [/^rolled back: the device came back on (?<v>.+)$/, (g) => `已回退：设备重启后为 ${zhVersion(g.v ?? '')}`],
  [/^rolled back: the tag reports (?<v>.+)$/, (g) => `已回退：价签报告 ${g.v}`],
  [/^refused by station (?<sn>\S+) \((?<code>[^)]*)\)$/, (g) => `基站 ${g.sn} 拒绝（${g.code}）`],
  [/^failed at station (?<sn>\S+) \((?<code>[^)]*)\)$/, (g) => `在基站 ${g.sn} 失败（${g.code}）`],
  [/^failed after (?<n>\d+) attempts \((?<why>.*)\)$/, (g) => `${g.n} 次尝试后失败（${zhReason(g.why ?? '')}）`],
  [
    /^attempt (?<n>\d+) failed \((?<why>.*)\); trying again$/,
    (g) => `第 ${g.n} 次失败（${zhReason(g.why ?? '')}），重试`,
  ],
  [/^stopped before it started; the device keeps its firmware$/, () => '开始前已停止，设备保留原固件'],
  [/^stopped before it started$/, () => '开始前已停止'],
  [/^never reported the new version after installing$/, () => '安装后一直未报告新版本'],
  [/^queued \(running (?<from>.+)\)$/, (g) => `已排队（当前版本 ${zhVersion(g.from ?? '')}）`],
];
const REASONS: Record<string, string> = {
  'timed out': '超时',
  'transfer failed': '传输失败',
  'no result from the station in time': '基站未按时回复',
  'the downloaded file did not match its SHA-256': '下载的文件与 SHA-256 不符',
};
const zhReason = (why: string) => REASONS[why] ?? why;

const zhDevice = (device: string) => {
  for (const [en, zh] of Object.entries(DEVICE_WORDS)) {
    if (device.startsWith(`${en} `)) return `${zh} ${device.slice(en.length + 1)}`;
  }
  return device;
};

const SHAPES: Shape[] = [
  [/^(?<name>.+) signed in from (?<ip>\S*)$/, (g) => `${g.name} 从 ${g.ip} 登录`],
  [/^(?<name>.+) signed out from (?<ip>\S*)$/, (g) => `${g.name} 从 ${g.ip} 退出登录`],
  [
    /^sign-in attempts for (?<name>.+) slowed down (?<from>from .+): (?<n>\d+) failures in 24 hours$/,
    (g) => `${g.name} 的登录尝试已放慢${zhFrom(g.from ?? '')}：24 小时内失败 ${g.n} 次`,
  ],
  [/^station (?<sn>\S+) online \((?<why>.*)\)$/, (g) => `基站 ${g.sn} 上线（${zhWhy(g.why ?? '')}）`],
  [/^station (?<sn>\S+) offline \((?<why>.*)\)$/, (g) => `基站 ${g.sn} 离线（${zhWhy(g.why ?? '')}）`],
  [
    /^station (?<sn>\S+) went online\/offline (?<n>\d+) times within 5 minutes$/,
    (g) => `基站 ${g.sn} 5 分钟内上下线 ${g.n} 次`,
  ],
  [
    /^station (?<sn>\S+): dropped (?<n>\d+) (?:message|entries) \((?<why>.*)\)$/,
    (g) => `基站 ${g.sn}：丢弃 ${g.n} 条无效数据（${g.why}）`,
  ],
  [
    /^station (?<sn>\S+): its clock is (?<s>\d+) s (?<dir>ahead|behind)$/,
    (g) => `基站 ${g.sn}：时钟${g.dir === 'ahead' ? '快' : '慢'} ${g.s} 秒`,
  ],
  [
    /^(?<who>station \S+|unknown station) connected from (?<ip>\S+)$/,
    (g) => `${zhStation(g.who ?? '')} 从 ${g.ip} 连接`,
  ],
  [
    /^(?<who>station \S+|unknown station) disconnected from (?<ip>\S+)$/,
    (g) => `${zhStation(g.who ?? '')} 从 ${g.ip} 断开`,
  ],
  [
    /^(?<who>station \S+) connected from (?<ip>\S+) while already connected: .*$/,
    (g) => `${zhStation(g.who ?? '')} 从 ${g.ip} 再次连接，旧连接已关闭（是否两台设备用了同一密钥？）`,
  ],
  [
    /^(?<who>station \S+|unknown station) \((?<ip>[^)]*)\) published too fast; connection closed$/,
    (g) => `${zhStation(g.who ?? '')}（${g.ip}）发送过快，连接已关闭`,
  ],
  [
    /^(?<who>station \S+|unknown station) \((?<ip>[^)]*)\) sent an MQTT packet of (?<n>\d+) bytes; connection closed$/,
    (g) => `${zhStation(g.who ?? '')}（${g.ip}）发送了 ${g.n} 字节的数据包，连接已关闭`,
  ],
  [
    /^(?<who>station \S+|unknown station) \((?<ip>[^)]*)\) may not (?<what>publish to|subscribe to) (?<topic>".*"): (?<why>.*)$/,
    (g) =>
      `${zhStation(g.who ?? '')}（${g.ip}）无权${g.what === 'publish to' ? '发布到' : '订阅'} ${g.topic}：${g.why}`,
  ],
  [
    /^MQTT login refused \((?<why>[^)]*)\) for username (?<user>".*"), client id (?<client>".*"), from (?<ip>[^;]+)(?<more>; further attempts are throttled)?$/,
    (g) =>
      `基站登录被拒（${g.why}），用户名 ${g.user}，客户端 ${g.client}，来自 ${g.ip}${g.more ? '；后续尝试将被限速' : ''}`,
  ],
  [
    /^firmware (?<kind>\S+) (?<v>\S+) uploaded \((?<bytes>\d+) bytes, SHA-256 (?<hash>\w+)\)$/,
    (g) => `固件 ${g.kind} ${g.v} 已上传（${g.bytes} 字节，SHA-256 ${g.hash}）`,
  ],
  [
    /^tag (?<id>\S+) woke by (?<what>its button|NFC) \(station (?<sn>\S+)\)$/,
    (g) => `价签 ${g.id} 因${g.what === 'NFC' ? ' NFC ' : '按键'}唤醒（基站 ${g.sn}）`,
  ],
  [/^tag firmware (?<v>\S+) queued for (?<n>\d+) tags$/, (g) => `价签固件 ${g.v} 已为 ${g.n} 个价签排队`],
  [/^listening on (?<at>\S+)$/, (g) => `在 ${g.at} 监听`],
  [/^stopping on (?<signal>\S+)$/, (g) => `收到 ${g.signal}，正在停止`],
  [
    /^server process (?<ids>.+) stopped without a goodbye; (?<n>\d+) stations asked to resend their results$/,
    (g) => `服务进程 ${g.ids} 意外停止；已请 ${g.n} 个基站重发结果`,
  ],
];
const zhStation = (who: string) => (who === 'unknown station' ? '未知基站' : `基站 ${who.slice('station '.length)}`);

/** "<device>: firmware <version> <step>" in Chinese, or null when it is not of that shape. */
function firmwareStep(message: string): string | null {
  const m = /^(?<device>(?:tag|base station|radio module) \S+): firmware (?<v>\S+) (?<rest>.+)$/.exec(message);
  if (!m?.groups) return null;
  const { device = '', v = '', rest = '' } = m.groups;
  for (const [pattern, zh] of FIRMWARE_STEPS) {
    const step = pattern.exec(rest);
    if (step) return `${zhDevice(device)}：固件 ${v} ${zh(step.groups ?? {})}`;
  }
  return `${zhDevice(device)}：固件 ${v} ${rest}`;
}

/**
 * A system-log message in the reader's language: English as written; Chinese from the message's
 * known shape (as written when it has none, e.g. a server error's own text).
 */
export function sysLogMessage(message: string, lang: Language): string {
  if (lang === 'en') return message;
  const skipped = /^(?<body>.*) \(and (?<n>\d+) more like it since the last row\)$/.exec(message);
  if (skipped?.groups) {
    return `${sysLogMessage(skipped.groups.body ?? '', lang)}（此后另有 ${skipped.groups.n} 条同样的记录）`;
  }
  const fw = firmwareStep(message);
  if (fw) return fw;
  for (const [pattern, zh] of SHAPES) {
    const m = pattern.exec(message);
    if (m) return zh(m.groups ?? {});
  }
  return message;
}
