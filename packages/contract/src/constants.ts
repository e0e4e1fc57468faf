/** Business constants of SPEC.md §9, shared by console and server. */
export const REQUEST_TIMEOUT_MS = 5000;
export const MESSAGE_DURATION_MS = 5000;
export const SHOP_LIST_LIMIT = 2000;
export const MOBILE_BREAKPOINT_PX = 992;
export const SIDEBAR_WIDTH_PX = 210;
export const AVATAR_MAX_BYTES = 2 * 1024 * 1024;
export const TOKEN_COOKIE = 'ESL-Token';
export const SIDEBAR_COOKIE = 'sidebarStatus';
export const SIZE_COOKIE = 'size';
export const LANGUAGE_STORAGE_KEY = 'change-language';
export const NOTICE_SOCKET_PATH = '/sys/eslnotice';
export const NOTICE_HEARTBEAT_MS = 300_000;
export const NOTICE_SILENCE_TIMEOUT_MS = 900_000;
export const NOTICE_RECONNECT_MS = 5000;
export const SEARCH_THRESHOLD = 0.4;
export const THEME_DEFAULT_COLOUR = '#1890ff';
export const PRODUCT_TITLE = 'electronic price tag system';
