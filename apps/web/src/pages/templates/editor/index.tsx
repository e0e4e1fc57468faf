import { migrate } from '@esl/labels';
import { useQuery } from '@tanstack/react-query';
import { Button, Result, Spin } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { loadLabelFonts } from '../../../editor/fonts';
import { request } from '../../../platform/request';
import { useUserStore } from '../../../store/user';
import { Editor } from './Editor';
import './editor.css';
import { queryKeys } from '../../../platform/queryKeys';

/** Reads a template id from the query (?id=12); anything else is no id. */
export function templateId(value: string | null): number | null {
  if (value === null || !/^\d{1,15}$/.test(value)) return null;
  const id = Number(value);
  return id > 0 ? id : null;
}

/**
 * The template editor (hidden route /tmpl/tmpledit?id=…): loads the template and the label fonts,
 * repairs the document if it has to, then hands over to the editor.
 */
export default function TemplateEditorPage() {
  const { t } = useTranslation('editor');
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const id = templateId(params.get('id'));
  const canWrite = useUserStore((s) => s.permissions.includes('template.write'));

  const template = useQuery({
    queryKey: queryKeys.templateData(id),
    queryFn: () => request('templateData', { id: id ?? 0 }),
    enabled: id !== null,
    // The editor owns the document once loaded; a background refetch must not replace it.
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
  });
  const fonts = useQuery({
    queryKey: queryKeys.labelFonts(),
    queryFn: loadLabelFonts,
    staleTime: Number.POSITIVE_INFINITY,
  });

  const loaded = useMemo(() => {
    if (!template.data) return null;
    try {
      const { doc, repairs } = migrate(template.data.doc);
      return { doc, repairs: [...template.data.repairs, ...repairs], error: null };
    } catch (error) {
      return { doc: null, repairs: [], error: (error as Error).message };
    }
  }, [template.data]);

  const back = (
    <Button type="primary" onClick={() => navigate('/tmpl/index')}>
      {t('backToList')}
    </Button>
  );
  if (id === null) return <Result status="warning" title={t('noTemplate')} extra={back} />;
  if (template.isError) {
    return (
      <Result
        status="error"
        title={t('loadFailed')}
        subTitle={template.error.message}
        extra={[
          back,
          <Button key="retry" onClick={() => void template.refetch()}>
            {t('retry')}
          </Button>,
        ]}
      />
    );
  }
  if (fonts.isError) {
    return (
      <Result
        status="error"
        title={t('fontsFailed')}
        extra={
          <Button type="primary" onClick={() => void fonts.refetch()}>
            {t('retry')}
          </Button>
        }
      />
    );
  }
  if (!template.data || !loaded || !fonts.data) {
    return (
      <div style={{ padding: 48, textAlign: 'center' }}>
        <Spin tip={t('loading')} size="large">
          <div style={{ height: 60 }} />
        </Spin>
      </div>
    );
  }
  if (!loaded.doc) return <Result status="error" title={t('unreadable')} subTitle={loaded.error} extra={back} />;
  return (
    <Editor
      key={`${template.data.id}`}
      template={template.data}
      doc={loaded.doc}
      repairs={loaded.repairs}
      canWrite={canWrite}
      fonts={fonts.data}
    />
  );
}
