import { ReloadOutlined, SearchOutlined } from '@ant-design/icons';
import { Button, Form, Space } from 'antd';
import { useTranslation } from 'react-i18next';

/**
 * The Search and Reset buttons that end every list page's filter form: Search submits the form,
 * Reset is the page's (clear the fields, search with no filter).
 */
export function FilterActions({ onReset }: { onReset: () => void }) {
  const { t } = useTranslation('common');
  return (
    <Form.Item>
      <Space>
        <Button type="primary" htmlType="submit" icon={<SearchOutlined />}>
          {t('filter.search')}
        </Button>
        <Button icon={<ReloadOutlined />} onClick={onReset}>
          {t('filter.reset')}
        </Button>
      </Space>
    </Form.Item>
  );
}
