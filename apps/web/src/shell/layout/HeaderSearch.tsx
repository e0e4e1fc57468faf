import { SearchOutlined } from '@ant-design/icons';
import { Input, Tooltip } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';

// The finder (Fuse and antd's select) loads when the pointer or the focus reaches the search
// button, not with the layout every screen needs.
const loadFinder = () => import('./HeaderSearchSelect');
const HeaderSearchSelect = lazy(loadFinder);

/** The header route search: an icon that opens a fuzzy page finder. */
export function HeaderSearch() {
  const { t } = useTranslation('navbar');
  const [show, setShow] = useState(false);
  // What is typed before the finder's code is in (a first search on a slow line): handed to it.
  const [typed, setTyped] = useState('');
  const close = () => {
    setShow(false);
    setTyped('');
  };
  return (
    <span className={`header-search${show ? ' show' : ''}`}>
      <Tooltip title={t('search')} placement="bottom">
        <button
          type="button"
          className="nav-item-icon"
          aria-label={t('search')}
          data-testid="header-search"
          onPointerEnter={() => void loadFinder()}
          onFocus={() => void loadFinder()}
          onClick={() => (show ? close() : setShow(true))}
        >
          <SearchOutlined />
        </button>
      </Tooltip>
      {show && (
        <Suspense
          fallback={
            <Input
              className="header-search-select"
              autoFocus
              placeholder={t('searchPlaceholder')}
              value={typed}
              onChange={(e) => setTyped(e.target.value)}
            />
          }
        >
          <HeaderSearchSelect typed={typed} onClose={close} />
        </Suspense>
      )}
    </span>
  );
}
