import { describe, expect, it } from 'vitest';
import { SYS_EVENT_LABELS, sysEventName, sysLogMessage } from './sysLogWords';

// The messages exactly as the server writes them (session, gateway, firmware, broker, main).
const SAMPLES: [en: string, zh: string][] = [
  ['admin signed in from 10.0.0.7', 'admin 从 10.0.0.7 登录'],
  ['clerk signed out from ::1', 'clerk 从 ::1 退出登录'],
  [
    'sign-in attempts for bob slowed down from 10.0.0.9: 6 failures in 24 hours',
    'bob 的登录尝试已放慢（来自 10.0.0.9）：24 小时内失败 6 次',
  ],
  ['station DEMO2AP03 online (connected)', '基站 DEMO2AP03 上线（已连接）'],
  ['station DEMO2AP03 online (reconnected)', '基站 DEMO2AP03 上线（已重新连接）'],
  ['station DEMO2AP03 offline (no heartbeat for 3 intervals)', '基站 DEMO2AP03 离线（连续 3 个心跳周期无响应）'],
  ['station AP1 went online/offline 7 times within 5 minutes', '基站 AP1 5 分钟内上下线 7 次'],
  ['station AP1: its clock is 42 s behind', '基站 AP1：时钟慢 42 秒'],
  ['station AP1 connected from 10.1.1.1', '基站 AP1 从 10.1.1.1 连接'],
  [
    'base station AP1: firmware 1.2.0 sent to station AP1 (attempt 2)',
    '基站 AP1：固件 1.2.0 已发送到基站 AP1（第 2 次）',
  ],
  ['tag 0A1B2C3D: firmware 7 installed: the device reports 7', '价签 0A1B2C3D：固件 7 已安装：设备报告版本 7'],
  ['radio module AP2: firmware 3 failed after 3 attempts (timed out)', '射频模块 AP2：固件 3 3 次尝试后失败（超时）'],
  ['tag firmware 9 queued for 40 tags', '价签固件 9 已为 40 个价签排队'],
  ['tag 0000EE0000000101 woke by its button (station AP1)', '价签 0000EE0000000101 因按键唤醒（基站 AP1）'],
  ['tag 0000EE0000000101 woke by NFC (station AP1)', '价签 0000EE0000000101 因 NFC 唤醒（基站 AP1）'],
  ['listening on 0.0.0.0:8080', '在 0.0.0.0:8080 监听'],
  [
    'station AP1 online (hello) (and 4 more like it since the last row)',
    '基站 AP1 上线（已报到）（此后另有 4 条同样的记录）',
  ],
];

describe('the system log in the reader language', () => {
  it.each(SAMPLES)('says %s in Chinese', (en, zh) => {
    expect(sysLogMessage(en, 'zh-CN')).toBe(zh);
    expect(sysLogMessage(en, 'en')).toBe(en);
  });

  it('keeps a message of no known shape as written', () => {
    expect(sysLogMessage('POST /api/x: boom', 'zh-CN')).toBe('POST /api/x: boom');
  });

  it('names every event in both languages, and an unknown one as written', () => {
    for (const [event, words] of Object.entries(SYS_EVENT_LABELS)) {
      expect(words['zh-CN'], event).toMatch(/\p{Script=Han}/u);
      expect(words.en, event).not.toBe(event);
    }
    expect(sysEventName('firmware.done', 'zh-CN')).toBe('固件升级完成');
    expect(sysEventName('custom.thing', 'en')).toBe('custom.thing');
  });
});
