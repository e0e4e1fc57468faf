import { AddStationBody, type AddStationData, type Station, type StationKind } from '@esl/contract';
import { Form, Radio } from 'antd';
import { useTranslation } from 'react-i18next';
import { FormModal, useFormDialog } from '../../components/FormModal';
import { FormFields } from '../../components/form/FormFields';
import { contractFields, type FieldsOf } from '../../components/form/spec';
import { request } from '../../platform/request';
import { ApTest } from './ApTest';
import { AP_URL, editBody, type StationFormValues, stationBody } from './body';

const f = contractFields(AddStationBody.shape);
const SN = f.text('sn', {
  label: 'field.sn',
  extra: 'field.snHint',
  required: 'rule.sn',
  pattern: [/^\s*[A-Za-z0-9_-]*\s*$/, 'rule.snChars'],
  autoFocus: true,
});
const NAME = f.text('name', { label: 'field.name', lineBreak: true });
const MODULE = f.text('module', { label: 'field.module', placeholder: 'field.modulePlaceholder', lineBreak: true });
const AP = f.text('apUrl', {
  label: 'field.apUrl',
  extra: 'field.apUrlHint',
  required: 'rule.apUrl',
  pattern: [AP_URL, 'rule.apUrlForm'],
  placeholder: { literal: 'http://192.168.50.2' },
  autoComplete: 'off',
});

interface Props {
  open: boolean;
  /** null: add a station; else edit this one (its name, and an OEPL station's AP address). */
  record: Station | null;
  onClose: () => void;
  /** A station was added (its secret, for a station of kind `station`, is in the answer, shown once). */
  onAdded: (station: AddStationData) => void;
  onEdited: () => void;
}

export function StationModal({ open, record, onClose, onAdded, onEdited }: Props) {
  const { t } = useTranslation('stations');
  const dialog = useFormDialog<StationFormValues, Station, AddStationData | Station>({
    open,
    record,
    onClose,
    fill: (s) => ({ sn: s.sn, name: s.name, module: s.module, kind: s.kind, apUrl: s.apUrl }),
    save: (values) =>
      record
        ? request('editStation', editBody(record.id, record.kind, values))
        : request('addStation', stationBody(values)),
    onSaved: (answer) => (record ? onEdited() : onAdded(answer as AddStationData)),
  });
  const kind: StationKind = Form.useWatch('kind', dialog.form) ?? record?.kind ?? 'station';
  const fields: FieldsOf<StationFormValues> = record
    ? [
        { ...SN, disabled: true, autoFocus: false, extra: undefined },
        { ...NAME, autoFocus: true },
      ]
    : kind === 'oepl'
      ? [SN, NAME]
      : [SN, NAME, MODULE];

  return (
    <FormModal
      {...dialog}
      title={record ? t('editTitle', { sn: record.sn }) : t('addTitle')}
      width={560}
      name="station"
      autoComplete="off"
      initialValues={{ kind: 'station' }}
    >
      {!record && (
        <Form.Item
          name="kind"
          label={t('field.kind')}
          extra={t(kind === 'oepl' ? 'kind.oeplHint' : 'kind.stationHint')}
        >
          <Radio.Group
            data-testid="station-kind"
            optionType="button"
            options={[
              { value: 'station', label: t('kind.station') },
              { value: 'oepl', label: t('kind.oepl') },
            ]}
          />
        </Form.Item>
      )}
      <FormFields fields={fields} t={t} />
      {kind === 'oepl' && (
        <>
          <FormFields fields={[AP]} t={t} />
          <ApTest />
        </>
      )}
    </FormModal>
  );
}
