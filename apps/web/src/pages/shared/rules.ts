/** Trimmed text, or undefined when nothing but spaces is left (an unset filter). */
export function trimmedOrUndefined(value: string | undefined): string | undefined {
  const text = value?.trim();
  return text ? text : undefined;
}
