import { CopyOutlined } from '@ant-design/icons';
import { type TagColourType, TagColourType as TagColourTypes, type Template } from '@esl/contract';
import { useMutation } from '@tanstack/react-query';
import { App, Typography } from 'antd';
import { lazy, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { addAction, deleteAction, editAction, useRowsCall } from '../../../components/list/commonActions';
import { selectFilter, textFilter } from '../../../components/list/filters';
import { ListPage } from '../../../components/list/ListPage';
import { useListQuery } from '../../../components/list/useListQuery';
import { OnceOpened } from '../../../components/OnceOpened';
import { request } from '../../../platform/request';
import { useUserStore } from '../../../store/user';
import { parseTime } from '../../../utils/time';
import { trimmedOrUndefined } from '../../shared/rules';
import { ColourType } from './ColourType';
import { MODEL_OPTIONS } from './modelOptions';
import './templates.css';

// The dialogs load when they first open, not with the list.
const AddTemplateModal = lazy(() => import('./AddTemplateModal').then((m) => ({ default: m.AddTemplateModal })));
const FontsModal = lazy(() => import('./FontsModal').then((m) => ({ default: m.FontsModal })));
const RulesModal = lazy(() => import('./RulesModal').then((m) => ({ default: m.RulesModal })));

interface FilterValues {
  name?: string;
  model?: string;
  colourType?: TagColourType;
}

/** Where the editor opens a template. */
export function editorPath(id: number): string {
  return `/tmpl/tmpledit?id=${id}`;
}

const COLOUR_OPTIONS = TagColourTypes.options.map((c) => ({ value: c, label: <ColourType value={c} /> }));

export default function TemplatesPage() {
  const { t } = useTranslation('templates');
  const { message } = App.useApp();
  const navigate = useNavigate();
  const canWrite = useUserStore((s) => s.permissions.includes('template.write'));
  const [adding, setAdding] = useState(false);
  const [rulesOpen, setRulesOpen] = useState(false);
  const [fontsOpen, setFontsOpen] = useState(false);

  const list = useListQuery('templateList', {
    toFilter: (v: FilterValues) => ({
      name: trimmedOrUndefined(v.name),
      model: v.model || undefined,
      colourType: v.colourType || undefined,
    }),
  });
  const copy = useMutation({
    mutationFn: (id: number) => request('copyTemplate', { id }),
    onSuccess: (copyRow) => {
      message.success(t('copied', { name: copyRow.name }));
      list.changed();
    },
  });
  const remove = useRowsCall('delTemplate', list, () => t('deleted'));
  const open = (row: Template) => navigate(editorPath(row.id));

  return (
    <ListPage
      list={list}
      ns="templates"
      formName="tmpl-filter"
      filters={[
        textFilter(t, 'name', 180),
        selectFilter(t, 'model', 190, MODEL_OPTIONS, { all: 'filter.allModels', search: true }),
        selectFilter(t, 'colourType', 170, COLOUR_OPTIONS, { all: 'filter.allColours' }),
      ]}
      columns={[
        {
          title: t('col.thumbnail'),
          dataIndex: 'thumbnail',
          width: 170,
          render: (src: string, row) => (
            <button type="button" className="tmpl-thumb" onClick={() => open(row)} title={t('open')}>
              <img
                src={src}
                alt={row.name}
                style={{ maxWidth: 150, maxHeight: 80, imageRendering: 'pixelated', display: 'block' }}
                loading="lazy"
              />
            </button>
          ),
        },
        {
          title: t('col.name'),
          dataIndex: 'name',
          ellipsis: true,
          render: (name: string, row) => <Typography.Link onClick={() => open(row)}>{name}</Typography.Link>,
        },
        {
          title: t('col.model'),
          dataIndex: 'modelName',
          // Rotation, when the template has one, follows the size ("296×152 · 90°").
          width: 180,
          render: (modelName: string, row) => (
            <span>
              {row.model ? modelName : <Typography.Text type="secondary">{t('customSize')}</Typography.Text>}
              <Typography.Text type="secondary" style={{ marginLeft: 6 }}>
                {row.width}×{row.length}
                {row.rotation ? ` · ${row.rotation}°` : ''}
              </Typography.Text>
            </span>
          ),
        },
        {
          title: t('col.colourType'),
          dataIndex: 'colourType',
          // Long names ("Black/white/red/yellow") wrap below their inks rather than run into the next column.
          width: 180,
          render: (v: TagColourType) => <ColourType value={v} />,
        },
        { title: t('col.updated'), dataIndex: 'updatedAt', width: 170, render: (v: number) => parseTime(v) },
      ]}
      actions={{
        width: canWrite ? 220 : 90,
        items: (row) => [
          editAction(t, () => open(row)),
          canWrite && {
            key: 'copy',
            label: t('copy'),
            icon: <CopyOutlined />,
            loading: copy.isPending && copy.variables === row.id,
            onClick: () => copy.mutate(row.id),
          },
          canWrite && deleteAction(t, t('deleteConfirm', { name: row.name }), () => remove.mutateAsync([row.id])),
        ],
      }}
      toolbar={[
        { key: 'rules', label: t('rules.open'), testId: 'tmpl-rules', onClick: () => setRulesOpen(true) },
        { key: 'fonts', label: t('fonts.open'), testId: 'tmpl-fonts', onClick: () => setFontsOpen(true) },
        canWrite && addAction(t, () => setAdding(true), 'tmpl-add'),
      ]}
      scrollX={1080}
    >
      <OnceOpened open={rulesOpen}>
        <RulesModal open={rulesOpen} canWrite={canWrite} onClose={() => setRulesOpen(false)} />
      </OnceOpened>
      <OnceOpened open={fontsOpen}>
        <FontsModal open={fontsOpen} canWrite={canWrite} onClose={() => setFontsOpen(false)} />
      </OnceOpened>
      <OnceOpened open={adding}>
        <AddTemplateModal
          open={adding}
          onClose={() => setAdding(false)}
          onAdded={(template) => {
            setAdding(false);
            list.changed();
            navigate(editorPath(template.id));
          }}
        />
      </OnceOpened>
    </ListPage>
  );
}
