import type { Shop } from '@esl/contract';
import { Modal, Select } from 'antd';
import { useTranslation } from 'react-i18next';

/** The store switcher's dialog: a searchable list of the stores (loaded on first open). */
export default function StoreSwitcherDialog(props: {
  open: boolean;
  stores: readonly Shop[];
  loading: boolean;
  choice: number | undefined;
  onChoice: (id: number) => void;
  saving: boolean;
  onOk: () => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation('navbar');
  return (
    <Modal
      open={props.open}
      title={t('switchStore')}
      onCancel={props.onCancel}
      onOk={props.onOk}
      confirmLoading={props.saving}
      okButtonProps={{ disabled: props.choice === undefined }}
      destroyOnHidden
    >
      <Select<number>
        style={{ width: '100%' }}
        showSearch={{ optionFilterProp: 'label' }}
        loading={props.loading}
        value={props.choice}
        placeholder={t('store')}
        onChange={props.onChoice}
        notFoundContent={t('noStores')}
        options={props.stores.map((s) => ({ value: s.id, label: s.name, key: s.key }))}
        data-testid="store-select"
      />
    </Modal>
  );
}
