import { VALIDATION_DETAILS } from '@esl/contract';
import type { z } from 'zod';
import { type DetailKey, invalidField } from './errors';

/**
 * Turns the first zod issue into a VALIDATION error naming the field. The contract's own issue
 * messages are keys of VALIDATION_DETAILS; zod's built-in issue kinds are mapped onto those keys.
 */
export function validationError(error: z.ZodError) {
  const issue = error.issues[0];
  if (!issue) return invalidField('body', 'invalid');
  const field = issue.path.length ? issue.path.map(String).join('.') : 'body';
  return invalidField(field, detailOf(issue));
}

function detailOf(issue: z.core.$ZodIssue): DetailKey {
  if (issue.message in VALIDATION_DETAILS) return issue.message;
  switch (issue.code) {
    case 'invalid_type':
      if (issue.path.length === 0) return 'body';
      return issue.input === undefined || issue.input === null ? 'required' : 'invalid';
    case 'too_small':
      return issue.origin === 'string' && Number(issue.minimum) <= 1 ? 'required' : 'tooSmall';
    case 'too_big':
      return issue.origin === 'string' ? 'tooLong' : 'tooBig';
    default:
      return 'invalid';
  }
}
