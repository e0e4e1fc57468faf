import { SIDEBAR_COOKIE, SIZE_COOKIE } from '@esl/contract';
import Cookies from 'js-cookie';
import { create } from 'zustand';
import { SIZES, type Size } from '../platform/theme';

export type Device = 'desktop' | 'mobile';

function readSize(): Size {
  const stored = Cookies.get(SIZE_COOKIE);
  return (SIZES as readonly string[]).includes(stored ?? '') ? (stored as Size) : 'medium';
}

interface AppState {
  sidebarOpened: boolean;
  /** Set when the sidebar is closed by a resize rather than by the user, so it snaps shut. */
  withoutAnimation: boolean;
  device: Device;
  size: Size;
  toggleSidebar: () => void;
  closeSidebar: (withoutAnimation: boolean) => void;
  setDevice: (device: Device) => void;
  setSize: (size: Size) => void;
}

/** Layout state: sidebar open or closed (cookie sidebarStatus 1/0), device, UI size (cookie). */
export const useAppStore = create<AppState>()((set, get) => ({
  sidebarOpened: Cookies.get(SIDEBAR_COOKIE) !== '0',
  withoutAnimation: false,
  device: 'desktop',
  size: readSize(),
  toggleSidebar() {
    const opened = !get().sidebarOpened;
    Cookies.set(SIDEBAR_COOKIE, opened ? '1' : '0');
    set({ sidebarOpened: opened, withoutAnimation: false });
  },
  closeSidebar(withoutAnimation) {
    Cookies.set(SIDEBAR_COOKIE, '0');
    set({ sidebarOpened: false, withoutAnimation });
  },
  setDevice(device) {
    set({ device });
  },
  setSize(size) {
    Cookies.set(SIZE_COOKIE, size);
    set({ size });
  },
}));
