import { z } from 'zod';
import { Id, PasswordDigest, RequiredLine, ShopRef } from '../common';
import { Permission, Role } from '../roles';

export const LoginBody = z.object({ username: RequiredLine(64), password: PasswordDigest });
export const LoginData = z.object({ token: z.string() });

export const Shop = z.object({ id: z.number().int(), name: z.string(), key: z.string() });
export type Shop = z.infer<typeof Shop>;

export const InfoData = z.object({
  /** The signed-in user's own id: account settings alter it through /user/alertusr. */
  id: z.number().int(),
  roles: z.array(Role),
  name: z.string(),
  username: z.string(),
  /** Absolute URL: the server's public address + the avatar path; empty when none is set. */
  avatar: z.string(),
  introduction: z.string(),
  shop: z.array(Shop),
  curshop: ShopRef.nullable(),
  /** The user's tenant; `company` names it in the page title (empty when not set). */
  tenant: z.object({ id: z.number().int(), name: z.string(), company: z.string() }).nullable(),
  /** What this user may do on the server; the console renders from it. */
  permissions: z.array(Permission),
  /** The one role this session acts as (/user/changerole); '' when it acts with all of the user's roles. */
  role: z.union([Role, z.literal('')]),
  /** The roles this user may act as; more than one means the console offers a role switch. */
  switchable: z.array(Role),
});
export type InfoData = z.infer<typeof InfoData>;

/** JSON or form body: `curshop` is the store id. */
export const SetCurrShopBody = z.object({ curshop: Id });
export const SetCurrShopData = z.object({ curshop: ShopRef });

/** `role`: act as this one role from now on; '' = back to all of the user's roles. */
export const ChangeRoleBody = z.object({ role: z.union([Role, z.literal('')]) });
/** The derived token that replaces the caller's (the old one is revoked). */
export const ChangeRoleData = z.object({ token: z.string() });

/** The PDA configuration the navbar turns into a QR code. */
export const PdaConfigData = z.object({
  server: z.string(),
  tenant: z.object({ id: z.number().int(), name: z.string() }),
  store: z.object({ id: z.number().int(), name: z.string(), code: z.string() }).nullable(),
  version: z.literal(1),
});
export type PdaConfigData = z.infer<typeof PdaConfigData>;

export const AvatarData = z.object({ avatar: z.string() });
