import { Form, Input } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

interface Props {
  /** The form fields of the password and of its confirmation. */
  names: readonly [string, string];
  /** Their labels, in the page's words ("New password", "Confirm password"). */
  labels: readonly [string, string];
  /** Both must be filled in (a new account); otherwise both may stay empty (an edit keeps the password). */
  required?: boolean;
  /** Said under the password (e.g. "leave empty to keep it"). */
  extra?: ReactNode;
  /** An icon inside both inputs. */
  prefix?: ReactNode;
}

/**
 * A new password typed twice: every place that sets one (own account, a user, a tenant's
 * administrator, a reset) asks the same way and refuses the same mismatches.
 */
export function NewPasswordFields({ names, labels, required = true, extra, prefix }: Props) {
  const { t } = useTranslation('common');
  const [first, second] = names;
  const filled = required ? [{ required: true, message: t('rule.password') }] : [];
  return (
    <>
      <Form.Item name={first} label={labels[0]} extra={extra} rules={filled}>
        <Input.Password prefix={prefix} autoComplete="new-password" />
      </Form.Item>
      <Form.Item
        name={second}
        label={labels[1]}
        dependencies={[first]}
        rules={[
          ...filled,
          ({ getFieldValue }) => ({
            validator: (_, value: string | undefined) =>
              // An empty confirmation of a required password is told by the rule above.
              (required && !value) || (value ?? '') === (getFieldValue(first) ?? '')
                ? Promise.resolve()
                : Promise.reject(new Error(t('rule.mismatch'))),
          }),
        ]}
      >
        <Input.Password prefix={prefix} autoComplete="new-password" />
      </Form.Item>
    </>
  );
}
