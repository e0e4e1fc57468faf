import { Button, Popconfirm, Tooltip } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** One thing a user can do on a list screen: on a row, on the selection, or above the table. */
export interface ListAction {
  key: string;
  label: string;
  icon?: ReactNode;
  onClick: () => unknown;
  danger?: boolean;
  /** The main action of the toolbar (Add). */
  primary?: boolean;
  /**
   * Asked before it runs; the OK button says `okText` or the label. When `onClick` answers a
   * promise the box waits for it.
   */
  confirm?: { title: string; description: ReactNode; okText?: string };
  loading?: boolean;
  disabled?: boolean;
  /** Said on hover (a disabled action says why). */
  tooltip?: string;
  /** Only the icon, the label on hover and as its accessible name (a narrow actions column). */
  iconOnly?: boolean;
  testId?: string;
}

/** Where the action stands: rows have link buttons, the selection bar small ones, the toolbar full ones. */
export type ActionPlace = 'row' | 'selection' | 'toolbar';

/** Keeps the actions a role may perform: a page lists `canWrite && {...}`. */
export function allowed(actions: readonly (ListAction | false | undefined)[]): ListAction[] {
  return actions.filter((a): a is ListAction => Boolean(a));
}

export function ActionButton({ action, place }: { action: ListAction; place: ActionPlace }) {
  const { t } = useTranslation('common');
  const { label, icon, danger, confirm, iconOnly } = action;
  let button: ReactNode = (
    <Button
      type={place === 'row' ? 'link' : action.primary ? 'primary' : 'default'}
      size={place === 'toolbar' ? undefined : 'small'}
      danger={danger}
      icon={icon}
      loading={action.loading}
      disabled={action.disabled}
      aria-label={iconOnly ? label : undefined}
      data-testid={action.testId}
      onClick={confirm ? undefined : () => void action.onClick()}
    >
      {iconOnly ? null : label}
    </Button>
  );
  const tooltip = iconOnly ? label : action.tooltip;
  if (tooltip) button = <Tooltip title={tooltip}>{button}</Tooltip>;
  if (!confirm) return button;
  return (
    <Popconfirm
      // An icon-only action sits in a narrow column at the right edge: its question opens leftwards.
      placement={iconOnly ? 'left' : undefined}
      title={confirm.title}
      description={confirm.description}
      okText={confirm.okText ?? label}
      okButtonProps={danger ? { danger: true } : undefined}
      cancelText={t('cancel')}
      onConfirm={() => Promise.resolve(action.onClick()).catch(() => undefined)}
    >
      {button}
    </Popconfirm>
  );
}
