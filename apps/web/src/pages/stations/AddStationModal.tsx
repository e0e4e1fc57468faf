import { AddStationBody, type AddStationData } from '@esl/contract';
import { useTranslation } from 'react-i18next';
import { FormModal, useFormDialog } from '../../components/FormModal';
import { FormFields } from '../../components/form/FormFields';
import { contractFields, type FieldsOf } from '../../components/form/spec';
import { request } from '../../platform/request';
import { type StationFormValues, stationBody } from './body';

const f = contractFields(AddStationBody.shape);
const FIELDS: FieldsOf<StationFormValues> = [
  f.text('sn', {
    label: 'field.sn',
    extra: 'field.snHint',
    required: 'rule.sn',
    pattern: [/^\s*[A-Za-z0-9_-]*\s*$/, 'rule.snChars'],
    autoFocus: true,
  }),
  f.text('name', { label: 'field.name', lineBreak: true }),
  f.text('module', { label: 'field.module', placeholder: 'field.modulePlaceholder', lineBreak: true }),
];

interface Props {
  open: boolean;
  onClose: () => void;
  /** The station was added; its secret is in the answer, to be shown once. */
  onAdded: (station: AddStationData) => void;
}

export function AddStationModal({ open, onClose, onAdded }: Props) {
  const { t } = useTranslation('stations');
  const dialog = useFormDialog({
    open,
    onClose,
    save: (values: StationFormValues) => request('addStation', stationBody(values)),
    onSaved: onAdded,
  });

  return (
    <FormModal {...dialog} title={t('addTitle')} width={520} name="station" autoComplete="off">
      <FormFields fields={FIELDS} t={t} />
    </FormModal>
  );
}
