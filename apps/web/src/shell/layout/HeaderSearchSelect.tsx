import { Select } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { createSearch, type SearchEntry, searchPool } from './searchPool';
import { usePermittedRoutes } from './usePermittedRoutes';

/** The header search's fuzzy page finder (loaded on the first search, with Fuse and antd's select). */
export default function HeaderSearchSelect({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation(['navbar', 'route']);
  const navigate = useNavigate();
  const { permitted } = usePermittedRoutes();
  const [results, setResults] = useState<SearchEntry[]>([]);
  const search = useMemo(() => createSearch(searchPool(permitted, (key) => t(`route:${key}`))), [permitted, t]);
  return (
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
        onClose();
      }}
      onBlur={onClose}
      data-testid="header-search-select"
    />
  );
}
