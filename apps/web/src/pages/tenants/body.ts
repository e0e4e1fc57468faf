import type { BodyOf } from '@esl/contract';

export interface TenantFormValues {
  name: string;
  company?: string;
  description?: string;
  account: string;
  sapwd: string;
  rsapwd?: string;
}

type Digest = (password: string) => string;

/** The administrator's password leaves the browser only as a digest (SPEC.md §5). */
export function addTenantBody(v: TenantFormValues, digest: Digest): BodyOf<'addTenant'> {
  return {
    name: v.name.trim(),
    company: (v.company ?? '').trim(),
    description: (v.description ?? '').trim(),
    account: v.account.trim(),
    sapwd: digest(v.sapwd),
  };
}

export function resetPasswordBody(id: number, pwd: string, digest: Digest): BodyOf<'resetAccountPwd'> {
  return { id, pwd: digest(pwd) };
}
