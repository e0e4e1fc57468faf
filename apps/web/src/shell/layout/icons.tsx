import {
  ApartmentOutlined,
  AppstoreOutlined,
  AuditOutlined,
  CloudUploadOutlined,
  ControlOutlined,
  DashboardOutlined,
  EditOutlined,
  FileSearchOutlined,
  FileTextOutlined,
  IdcardOutlined,
  LayoutOutlined,
  ProfileOutlined,
  RocketOutlined,
  SettingOutlined,
  ShopOutlined,
  ShoppingOutlined,
  TagsOutlined,
  TeamOutlined,
  WifiOutlined,
} from '@ant-design/icons';
import type { ComponentType } from 'react';

/** The menu icons the route table names. */
export const ICONS = {
  apartment: ApartmentOutlined,
  appstore: AppstoreOutlined,
  audit: AuditOutlined,
  cloudUpload: CloudUploadOutlined,
  control: ControlOutlined,
  dashboard: DashboardOutlined,
  edit: EditOutlined,
  fileSearch: FileSearchOutlined,
  fileText: FileTextOutlined,
  idcard: IdcardOutlined,
  layout: LayoutOutlined,
  profile: ProfileOutlined,
  rocket: RocketOutlined,
  setting: SettingOutlined,
  shop: ShopOutlined,
  shopping: ShoppingOutlined,
  tags: TagsOutlined,
  team: TeamOutlined,
  wifi: WifiOutlined,
} satisfies Record<string, ComponentType>;

export type IconName = keyof typeof ICONS;
