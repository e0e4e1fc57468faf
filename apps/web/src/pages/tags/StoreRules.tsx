import { LayoutOutlined } from '@ant-design/icons';
import { Button, Flex, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useUserStore } from '../../store/user';
import { RulesModal } from '../templates/list/RulesModal';

/**
 * The store parameters' way to the template rules (issue 13 item 0: "set in the store
 * parameters"): the rules dialog, whose store rules are those of the current store, so it is
 * offered for the current store and the others say to switch to them first.
 */
export function StoreRules({ storeId }: { storeId: number }) {
  const { t } = useTranslation('tags');
  const [open, setOpen] = useState(false);
  const permissions = useUserStore((s) => s.permissions);
  const current = useUserStore((s) => s.curshop?.id ?? null);
  if (!permissions.includes('template.read')) return null;
  return (
    <Flex vertical gap={4} data-testid="store-template-rules">
      <Typography.Text strong>{t('storeRules.title')}</Typography.Text>
      {current === storeId ? (
        <Flex gap={8} align="center" wrap>
          <Typography.Text type="secondary">{t('storeRules.help')}</Typography.Text>
          <Button size="small" icon={<LayoutOutlined />} onClick={() => setOpen(true)}>
            {t('template.rulesAction')}
          </Button>
        </Flex>
      ) : (
        <Typography.Text type="secondary">{t('storeRules.switchFirst')}</Typography.Text>
      )}
      <RulesModal open={open} canWrite={permissions.includes('template.write')} onClose={() => setOpen(false)} />
    </Flex>
  );
}
