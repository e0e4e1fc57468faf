import { ColumnHeightOutlined } from '@ant-design/icons';
import { App, Dropdown, type MenuProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { useRefreshView } from '../../platform/refreshView';
import { SIZES, type Size } from '../../platform/theme';
import { useAppStore } from '../../store/app';

const LABEL_KEYS: Record<Size, string> = {
  default: 'sizeDefault',
  medium: 'sizeMedium',
  small: 'sizeSmall',
  mini: 'sizeMini',
};

/** The global size: four densities, kept in a cookie; switching reloads the view. */
export function SizeSelect() {
  const { t } = useTranslation('navbar');
  const { message } = App.useApp();
  const size = useAppStore((s) => s.size);
  const setSize = useAppStore((s) => s.setSize);
  const refresh = useRefreshView();
  const items: MenuProps['items'] = SIZES.map((s) => ({
    key: s,
    label: <span data-testid={`size-${s}`}>{t(LABEL_KEYS[s])}</span>,
    disabled: s === size,
  }));
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        items,
        selectable: true,
        selectedKeys: [size],
        onClick: ({ key }) => {
          setSize(key as Size);
          refresh();
          void message.success(t('sizeSwitched'));
        },
      }}
    >
      <button type="button" className="nav-item" aria-label={t('size')} title={t('size')} data-testid="size-select">
        <ColumnHeightOutlined />
      </button>
    </Dropdown>
  );
}
