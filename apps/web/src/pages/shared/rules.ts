/** A form rule refusing line breaks (SPEC.md §5, 'No line breaks allowed'): one home, the form fields'. */
export { noLineBreak } from '../../components/form/spec';

/** Trimmed text, or undefined when nothing but spaces is left (an unset filter). */
export function trimmedOrUndefined(value: string | undefined): string | undefined {
  const text = value?.trim();
  return text ? text : undefined;
}
