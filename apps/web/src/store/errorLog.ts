import { create } from 'zustand';

export interface ErrorLogEntry {
  message: string;
  stack: string;
  url: string;
  time: number;
}

interface ErrorLogState {
  logs: ErrorLogEntry[];
  add: (entry: ErrorLogEntry) => void;
  clear: () => void;
}

export const useErrorLogStore = create<ErrorLogState>()((set) => ({
  logs: [],
  add(entry) {
    set(({ logs }) => ({ logs: [...logs, entry] }));
  },
  clear() {
    set({ logs: [] });
  },
}));

/** Collects window errors and rejected promises (installed in production builds only). */
export function installErrorCollector(target: Window = window): void {
  const { add } = useErrorLogStore.getState();
  target.addEventListener('error', (event) => {
    const error = event.error instanceof Error ? event.error : undefined;
    add({
      message: error?.message ?? event.message ?? String(event.error),
      stack: error?.stack ?? '',
      url: target.location.href,
      time: Date.now(),
    });
  });
  target.addEventListener('unhandledrejection', (event) => {
    const reason: unknown = event.reason;
    add({
      message: reason instanceof Error ? reason.message : String(reason),
      stack: reason instanceof Error ? (reason.stack ?? '') : '',
      url: target.location.href,
      time: Date.now(),
    });
  });
}
