import { UploadOutlined } from '@ant-design/icons';
import { LIMITS } from '@esl/labels/model';
import { App, Button, Form, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import type { TypeFieldsProps } from './fields';

const FITS = ['contain', 'cover', 'stretch'] as const;

/** An image's own fields: the picture (a data URL within the schema's limit) and how it fits its box. */
export function ImageFields({ el, patch, done }: TypeFieldsProps<'image'>) {
  const { t } = useTranslation('editor');
  const { message } = App.useApp();

  const readImage = (file: File) => {
    const reader = new FileReader();
    reader.onload = () => {
      const src = typeof reader.result === 'string' ? reader.result : '';
      if (src.length > LIMITS.imageChars) message.error(t('props.imageTooLarge'));
      else if (src) patch('src', { src });
      done();
    };
    reader.readAsDataURL(file);
  };

  return (
    <>
      <Form.Item label={t('props.image')} extra={t('props.imageHelp')}>
        <label className="ant-btn ant-btn-default ant-btn-sm" style={{ cursor: 'pointer' }}>
          <UploadOutlined /> {t('props.chooseImage')}
          <input
            type="file"
            accept="image/png,image/jpeg"
            hidden
            onChange={(e) => {
              const file = e.target.files?.[0];
              if (file) readImage(file);
              e.target.value = '';
            }}
          />
        </label>
      </Form.Item>
      <Form.Item label={t('props.imageFit')}>
        <Select
          size="small"
          value={el.fit}
          options={FITS.map((f) => ({ value: f, label: t(`props.fit_${f}`) }))}
          onChange={(fit: (typeof FITS)[number]) => patch('fit', { fit })}
        />
      </Form.Item>
    </>
  );
}

/** Below the bindings: takes the picture out again. */
export function ImageRemove({ el, patch }: TypeFieldsProps<'image'>) {
  const { t } = useTranslation('editor');
  if (el.src === '') return null;
  return (
    <Button size="small" danger onClick={() => patch('src', { src: '' })}>
      {t('props.removeImage')}
    </Button>
  );
}
