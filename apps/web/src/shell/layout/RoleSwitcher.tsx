import { CheckOutlined } from '@ant-design/icons';
import { App, Button, Modal } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { queryClient } from '../../platform/query';
import { useUserStore } from '../../store/user';
import { type RoleChoice, roleChoices, roleLabelKey } from './roleSwitch';

/**
 * The role picker of the user dropdown (SPEC.md §4 role change). A pick takes the derived token,
 * reloads the user (the menu and routes follow the new roles), closes every closable tab and goes
 * to the dashboard, where the answers cached under the old roles are fetched again.
 */
export function RoleSwitcher({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation('navbar');
  const { message } = App.useApp();
  const navigate = useNavigate();
  const role = useUserStore((s) => s.role);
  const switchable = useUserStore((s) => s.switchable);
  const changeRole = useUserStore((s) => s.changeRole);
  const [saving, setSaving] = useState<RoleChoice | null>(null);

  const pick = async (choice: RoleChoice) => {
    if (choice === role) {
      onClose();
      return;
    }
    setSaving(choice);
    try {
      await changeRole(choice);
      onClose();
      // The guard sends / to the dashboard, a page every role may open.
      await navigate('/');
      queryClient.removeQueries({ type: 'inactive' });
      await queryClient.invalidateQueries();
      void message.success(t('roleSwitched', { role: t(roleLabelKey(choice)) }));
    } catch {
      // Reported by the request client.
    } finally {
      setSaving(null);
    }
  };

  return (
    <Modal open={open} title={t('switchRole')} onCancel={onClose} footer={null} width={360} destroyOnHidden>
      <div className="role-switcher" data-testid="role-switcher">
        {roleChoices(switchable, role).map((choice) => {
          const current = choice === role;
          return (
            <Button
              key={choice || 'all'}
              block
              type={current ? 'primary' : 'default'}
              ghost={current}
              autoInsertSpace={false}
              icon={current ? <CheckOutlined /> : undefined}
              loading={saving === choice}
              disabled={saving !== null && saving !== choice}
              aria-current={current ? 'true' : undefined}
              data-testid="role-option"
              data-role={choice || 'all'}
              onClick={() => void pick(choice)}
              style={{ marginBottom: 8, justifyContent: 'flex-start' }}
            >
              {t(roleLabelKey(choice))}
            </Button>
          );
        })}
      </div>
    </Modal>
  );
}
