/** Uptime as the largest two units: "3 d 4 h", "5 h 12 min", "42 s" (zh-CN: "3天4小时"). */
export function formatUptime(seconds: number, lang: 'zh-CN' | 'en'): string {
  const units =
    lang === 'en'
      ? ([
          [86_400, ' d'],
          [3600, ' h'],
          [60, ' min'],
          [1, ' s'],
        ] as const)
      : ([
          [86_400, '天'],
          [3600, '小时'],
          [60, '分钟'],
          [1, '秒'],
        ] as const);
  const parts: string[] = [];
  let rest = Math.max(0, Math.floor(seconds));
  for (const [size, unit] of units) {
    const n = Math.floor(rest / size);
    rest -= n * size;
    if (parts.length > 0) {
      // The second unit: shown when not zero, and it ends the text either way.
      if (n > 0) parts.push(`${n}${unit}`);
      break;
    }
    if (n > 0 || size === 1) parts.push(`${n}${unit}`);
  }
  return parts.join(lang === 'en' ? ' ' : '');
}

/** Clock skew in seconds with a sign: "+0.3 s", "−12.0 s" (zh-CN: "+0.3秒", like the uptime's 秒). */
export function formatSkew(ms: number, lang: 'zh-CN' | 'en'): string {
  const s = Math.abs(ms) / 1000;
  return `${ms < 0 ? '−' : '+'}${s.toFixed(1)}${lang === 'en' ? ' s' : '秒'}`;
}
