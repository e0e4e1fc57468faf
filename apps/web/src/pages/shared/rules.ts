import type { Rule } from 'antd/es/form';

/** A form rule refusing line breaks (SPEC.md §5, 'No line breaks allowed'). */
export function noLineBreak(message: string): Rule {
  return {
    validator: (_, value: unknown) =>
      typeof value === 'string' && /[\r\n]/.test(value) ? Promise.reject(new Error(message)) : Promise.resolve(),
  };
}

/** Trimmed text, or undefined when nothing but spaces is left (an unset filter). */
export function trimmedOrUndefined(value: string | undefined): string | undefined {
  const text = value?.trim();
  return text ? text : undefined;
}
