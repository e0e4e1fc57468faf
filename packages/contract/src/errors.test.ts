import { describe, expect, it } from 'vitest';
import { ERROR_MESSAGES, ErrorCode, formatMessage, LANGUAGES, pickLanguage, VALIDATION_DETAILS } from './errors';

describe('error catalogue', () => {
  it('has a message in every language for every code', () => {
    for (const code of Object.values(ErrorCode)) {
      for (const lang of LANGUAGES) expect(ERROR_MESSAGES[code][lang].length).toBeGreaterThan(0);
    }
    for (const detail of Object.values(VALIDATION_DETAILS)) {
      for (const lang of LANGUAGES) expect(detail[lang].length).toBeGreaterThan(0);
    }
  });

  it('names the field in a validation message', () => {
    expect(formatMessage(ErrorCode.VALIDATION, 'en', { field: 'Username', detail: 'cannot be empty' })).toBe(
      'Username: cannot be empty',
    );
    expect(formatMessage(ErrorCode.VALIDATION, 'zh-CN', { field: '用户名', detail: '不能为空' })).toBe(
      '用户名：不能为空',
    );
  });

  it('picks the language from an Accept-Language header, zh-CN by default', () => {
    expect(pickLanguage('en-US,en;q=0.9')).toBe('en');
    expect(pickLanguage('zh-CN')).toBe('zh-CN');
    expect(pickLanguage('fr')).toBe('zh-CN');
    expect(pickLanguage(undefined)).toBe('zh-CN');
  });
});
