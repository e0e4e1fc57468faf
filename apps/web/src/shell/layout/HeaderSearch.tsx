import { SearchOutlined } from '@ant-design/icons';
import { Tooltip } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';

// The finder (Fuse and antd's select) loads on the first search, not with the layout every screen needs.
const HeaderSearchSelect = lazy(() => import('./HeaderSearchSelect'));

/** The header route search: an icon that opens a fuzzy page finder. */
export function HeaderSearch() {
  const { t } = useTranslation('navbar');
  const [show, setShow] = useState(false);
  return (
    <span className={`header-search${show ? ' show' : ''}`}>
      <Tooltip title={t('search')} placement="bottom">
        <button
          type="button"
          className="nav-item-icon"
          aria-label={t('search')}
          data-testid="header-search"
          onClick={() => setShow((s) => !s)}
        >
          <SearchOutlined />
        </button>
      </Tooltip>
      {show && (
        <Suspense fallback={null}>
          <HeaderSearchSelect onClose={() => setShow(false)} />
        </Suspense>
      )}
    </span>
  );
}
