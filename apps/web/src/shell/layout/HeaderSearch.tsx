import { SearchOutlined } from '@ant-design/icons';
import { Select, Tooltip } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { createSearch, type SearchEntry, searchPool } from './searchPool';
import { usePermittedRoutes } from './usePermittedRoutes';

/** The header route search: an icon that opens a fuzzy page finder. */
export function HeaderSearch() {
  const { t } = useTranslation(['navbar', 'route']);
  const navigate = useNavigate();
  const { permitted } = usePermittedRoutes();
  const [show, setShow] = useState(false);
  const [results, setResults] = useState<SearchEntry[]>([]);
  const search = useMemo(() => createSearch(searchPool(permitted, (key) => t(`route:${key}`))), [permitted, t]);

  const close = () => {
    setShow(false);
    setResults([]);
  };

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
        <Select<string>
          className="header-search-select"
          showSearch={{ filterOption: false, onSearch: (q) => setResults(search(q)) }}
          autoFocus
          defaultOpen
          placeholder={t('searchPlaceholder')}
          value={null}
          options={results.map((r) => ({ value: r.path, label: r.title.join(' > ') }))}
          notFoundContent={null}
          onSelect={(path) => {
            navigate(path);
            close();
          }}
          onBlur={close}
          data-testid="header-search-select"
        />
      )}
    </span>
  );
}
