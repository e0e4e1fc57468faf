import { SaveOutlined } from '@ant-design/icons';
import { Button, Card, Form, type FormInstance } from 'antd';
import type { ReactNode } from 'react';

interface Props<V> {
  title: ReactNode;
  form: FormInstance<V>;
  /** The form's name: its inputs' ids are `<name>_<field>`. */
  name: string;
  /** 'off' for forms a browser should not fill in (passwords). */
  autoComplete?: 'off';
  onFinish: (values: V) => void;
  /** The save is under way: the button spins. */
  saving: boolean;
  /** The button's words ("Save"). */
  submitText: string;
  /** Shown above the form, inside the card. */
  intro?: ReactNode;
  children: ReactNode;
}

/** A settings card: one form and its save button below the fields (account, tenant settings). */
export function CardForm<V>(props: Props<V>) {
  return (
    <Card title={props.title} size="small">
      {props.intro}
      <Form<V>
        form={props.form}
        name={props.name}
        layout="vertical"
        autoComplete={props.autoComplete}
        onFinish={props.onFinish}
      >
        {props.children}
        <Button type="primary" htmlType="submit" icon={<SaveOutlined />} loading={props.saving}>
          {props.submitText}
        </Button>
      </Form>
    </Card>
  );
}
