import { type ReactNode, Suspense, useState } from 'react';

/**
 * Renders a dialog whose code loads on demand (`React.lazy`) from the first time it opens, and
 * keeps it rendered afterwards: the dialog's code (antd's table, select, colour picker…) is
 * downloaded when it is first used, not with the screen, and once in, the dialog closes with its
 * animation and keeps its state as one rendered from the start would. Nothing shows while the
 * code downloads.
 */
export function OnceOpened({ open, children }: { open: boolean; children: ReactNode }) {
  const [opened, setOpened] = useState(open);
  if (open && !opened) setOpened(true);
  return opened || open ? <Suspense fallback={null}>{children}</Suspense> : null;
}
