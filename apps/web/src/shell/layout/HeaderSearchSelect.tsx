import { Select } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { createSearch, searchPool } from './searchPool';
import { usePermittedRoutes } from './usePermittedRoutes';

/**
 * The header search's fuzzy page finder, loaded on the first search with Fuse and antd's select;
 * `typed` is what the user typed while it loaded (HeaderSearch.tsx), searched at once.
 */
export default function HeaderSearchSelect({ typed, onClose }: { typed: string; onClose: () => void }) {
  const { t } = useTranslation(['navbar', 'route']);
  const navigate = useNavigate();
  const { permitted } = usePermittedRoutes();
  const search = useMemo(() => createSearch(searchPool(permitted, (key) => t(`route:${key}`))), [permitted, t]);
  const [query, setQuery] = useState(typed);
  const results = useMemo(() => (query ? search(query) : []), [search, query]);
  return (
    <Select<string>
      className="header-search-select"
      showSearch={{ filterOption: false, searchValue: query, onSearch: setQuery }}
      autoFocus
      defaultOpen
      placeholder={t('searchPlaceholder')}
      value={null}
      options={results.map((r) => ({ value: r.path, label: r.title.join(' > ') }))}
      notFoundContent={null}
      onSelect={(path) => {
        navigate(path);
        onClose();
      }}
      onBlur={onClose}
      data-testid="header-search-select"
    />
  );
}
