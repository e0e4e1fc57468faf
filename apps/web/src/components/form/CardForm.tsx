import { SaveOutlined } from '@ant-design/icons';
import { useMutation } from '@tanstack/react-query';
import { Button, Card, Col, Form, type FormInstance, Row } from 'antd';
import { type ReactNode, useEffect, useRef } from 'react';
import { refill } from './refill';

interface Props<V, D> {
  title: ReactNode;
  /** The form's name: its inputs' ids are `<name>_<field>`. */
  name: string;
  /** 'off' for forms a browser should not fill in (passwords). */
  autoComplete?: 'off';
  /**
   * What the fields show. Each time it is another object, the fields whose value in it changed
   * are filled again (`refill`): a refetch of the same values keeps what the user is typing.
   */
  values?: Partial<V>;
  /** The call that saves the form's values. */
  save: (values: V) => Promise<D>;
  /** After a save: say so, reload what shows the values (the form is there to be emptied). */
  onSaved: (answer: D, form: FormInstance<V>) => unknown;
  /** The button's words ("Save"). */
  submitText: string;
  /** Shown above the form, inside the card. */
  intro?: ReactNode;
  children: ReactNode;
}

/**
 * A settings card (account, tenant settings): one form filled from what is stored, its fields,
 * and a button below them that saves it.
 */
export function CardForm<V, D>(props: Props<V, D>) {
  const [form] = Form.useForm<V>();
  const { values } = props;

  const taken = useRef<Partial<V> | undefined>(undefined);
  useEffect(() => {
    if (!values) return;
    const changed = refill(taken.current, values);
    taken.current = values;
    form.setFieldsValue(changed as Parameters<typeof form.setFieldsValue>[0]);
  }, [values, form]);

  const save = useMutation({ mutationFn: props.save, onSuccess: (answer) => props.onSaved(answer, form) });

  return (
    <Card title={props.title} size="small">
      {props.intro}
      <Form<V>
        form={form}
        name={props.name}
        layout="vertical"
        autoComplete={props.autoComplete}
        onFinish={(values) => save.mutate(values)}
      >
        {props.children}
        <Button type="primary" htmlType="submit" icon={<SaveOutlined />} loading={save.isPending}>
          {props.submitText}
        </Button>
      </Form>
    </Card>
  );
}

/** A settings screen's cards: two columns from the xl width up, one above the other below it. */
export function CardColumns({ left, right }: { left: ReactNode; right: ReactNode }) {
  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} xl={12}>
        {left}
      </Col>
      <Col xs={24} xl={12}>
        {right}
      </Col>
    </Row>
  );
}
