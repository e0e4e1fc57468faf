import { AddTenantBody, ResetAccountPwdBody } from '@esl/contract';
import { sha256 } from 'js-sha256';
import { describe, expect, it } from 'vitest';
import { addTenantBody, resetPasswordBody } from './body';

describe('tenant bodies', () => {
  it('sends the administrator password digested, never in clear', () => {
    const body = addTenantBody(
      { name: ' Acme ', account: ' boss ', sapwd: 'secret1', rsapwd: 'secret1', company: 'Acme Ltd' },
      sha256,
    );
    expect(body).toEqual({
      name: 'Acme',
      company: 'Acme Ltd',
      description: '',
      account: 'boss',
      sapwd: sha256('secret1'),
    });
    expect(JSON.stringify(body)).not.toContain('secret1');
    expect(AddTenantBody.safeParse(body).success).toBe(true);
  });

  it('digests the reset password', () => {
    const body = resetPasswordBody(3, 'new-pass', sha256);
    expect(body).toEqual({ id: 3, pwd: sha256('new-pass') });
    expect(ResetAccountPwdBody.safeParse(body).success).toBe(true);
  });
});
