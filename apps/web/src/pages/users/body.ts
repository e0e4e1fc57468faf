import type { BodyOf, TenantRole } from '@esl/contract';

/** What the user dialog's form holds; passwords are typed in clear and digested on the way out. */
export interface UserFormValues {
  username: string;
  name: string;
  password?: string;
  rpassword?: string;
  roles: TenantRole[];
  shops?: number[];
  introduction?: string;
}

type Digest = (password: string) => string;

export function addUserBody(values: UserFormValues, digest: Digest): BodyOf<'addUser'> {
  return {
    username: values.username.trim(),
    name: values.name.trim(),
    password: digest(values.password ?? ''),
    rpassword: digest(values.rpassword ?? ''),
    roles: values.roles,
    shops: storesFor(values),
    introduction: (values.introduction ?? '').trim(),
  };
}

/** The password changes only when one is typed (SPEC.md §5). */
export function alterUserBody(id: number, values: UserFormValues, digest: Digest): BodyOf<'alterUser'> {
  const body: BodyOf<'alterUser'> = {
    id,
    name: values.name.trim(),
    roles: values.roles,
    shops: storesFor(values),
    introduction: (values.introduction ?? '').trim(),
  };
  if (values.password) {
    body.password = digest(values.password);
    body.rpassword = digest(values.rpassword ?? '');
  }
  return body;
}

/** An administrator sees every store, so a store list is needed only for the other roles. */
export function needsStores(roles: readonly TenantRole[] | undefined): boolean {
  return !(roles ?? []).includes('admin');
}

function storesFor(values: UserFormValues): number[] {
  return values.shops ?? [];
}
