import { AimOutlined, ImportOutlined } from '@ant-design/icons';
import type { ProblemKind, WallTag } from '@esl/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Empty, Flex, Input, Modal, Popover, Select, Space, Tag, Typography } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type Notice, subscribeNotices } from '../../platform/notice';
import { queryKeys } from '../../platform/queryKeys';
import { request } from '../../platform/request';
import { MONO_FAMILY } from '../../platform/theme';
import { useUserStore } from '../../store/user';
import { KIND_COLOUR } from '../problems/kinds';
import { storeScreen } from '../shared/StoreRequired';
import { ScreenImage } from '../tags/Screen';
import { groupWall, parsePositions } from './layout';

export default storeScreen('wall', WallPage);

/** The LED pattern of "Find": green, long enough to be seen down an aisle. */
const FIND_LED = { colour: 'green', onMs: 500, offMs: 500, count: 10, repeat: 1 } as const;

/**
 * The store wall (docs/SHELF.md): the current store's placed tags by aisle, bay and shelf, each
 * showing the picture it was last sent (as the tag list does), with marks for a pending update and
 * for its problems; a tag's Find flashes its LED.
 */
function WallPage({ storeId }: { storeId: number }) {
  const { t } = useTranslation(['wall', 'problems']);
  const { message } = App.useApp();
  const permissions = useUserStore((s) => s.permissions);
  const queryClient = useQueryClient();
  const [aisle, setAisle] = useState<string | undefined>(undefined);
  const [importing, setImporting] = useState(false);
  const key = [...queryKeys.lists('tags', storeId), 'tagWall', aisle ?? ''];
  const wall = useQuery({ queryKey: key, queryFn: () => request('tagWall', aisle === undefined ? {} : { aisle }) });
  // A tag's new picture, status or problem redraws the wall.
  useEffect(
    () =>
      subscribeNotices((n: Notice) => {
        if (n.storeId !== storeId) return;
        if (n.type === 'tag.changed' || n.type === 'problems.changed') {
          void queryClient.invalidateQueries({ queryKey: queryKeys.lists('tags', storeId) });
        }
      }),
    [storeId, queryClient],
  );
  const find = useMutation({
    mutationFn: (id: number) => request('ledTag', { ids: [id], led: { ...FIND_LED } }),
    onSuccess: () => message.success(t('found')),
  });
  const aisles = useMemo(() => groupWall(wall.data?.tags ?? []), [wall.data]);
  const canFind = permissions.includes('tag.operate');

  const tile = (tag: WallTag) => (
    <Popover
      key={tag.id}
      trigger="click"
      title={<span style={{ fontFamily: MONO_FAMILY }}>{tag.hardwareId}</span>}
      content={
        <Space orientation="vertical" size={4} data-testid="wall-popover">
          <Typography.Text>{tag.productName ?? t('unbound')}</Typography.Text>
          {tag.barcode && <Typography.Text type="secondary">{tag.barcode}</Typography.Text>}
          <Typography.Text type="secondary">
            {t('place', { aisle: tag.aisle, bay: tag.bay, shelf: tag.shelf, position: tag.position ?? '–' })}
          </Typography.Text>
          {canFind ? (
            <Button
              type="primary"
              icon={<AimOutlined />}
              loading={find.isPending}
              onClick={() => find.mutate(tag.id)}
              data-testid="wall-find"
            >
              {t('find')}
            </Button>
          ) : (
            <Typography.Text type="secondary">{t('findNeedsOperate')}</Typography.Text>
          )}
        </Space>
      }
    >
      <button
        type="button"
        data-testid="wall-tag"
        data-hardware-id={tag.hardwareId}
        data-pending={tag.pending}
        data-problems={tag.problems.join(' ')}
        aria-label={t('open', { id: tag.hardwareId })}
        style={{
          border: tag.problems.length ? '2px solid #ff4d4f' : '2px solid transparent',
          borderRadius: 4,
          padding: 2,
          background: 'none',
          cursor: 'pointer',
          display: 'flex',
          flexDirection: 'column',
          alignItems: 'center',
          gap: 2,
        }}
      >
        <ScreenImage storeId={storeId} tag={tag} which="shown" height={56} maxWidth={120} />
        <Flex gap={2} wrap justify="center" style={{ maxWidth: 124 }}>
          {tag.pending && (
            <Tag color="processing" style={{ margin: 0, fontSize: 11 }} data-testid="wall-pending">
              {t('pending')}
            </Tag>
          )}
          {tag.problems.map((k) => (
            <Tag
              key={k}
              color={KIND_COLOUR[k as ProblemKind] ?? 'red'}
              style={{ margin: 0, fontSize: 11 }}
              data-testid="wall-problem"
            >
              {t(`problems:kind.${k}`)}
            </Tag>
          ))}
        </Flex>
      </button>
    </Popover>
  );

  return (
    <Space orientation="vertical" size="middle" style={{ display: 'flex' }}>
      <Card size="small">
        <Flex wrap gap={12} align="center" justify="space-between">
          <Space wrap>
            <Typography.Text>{t('aisle')}</Typography.Text>
            <Select
              style={{ minWidth: 160 }}
              value={aisle ?? ''}
              onChange={(v) => setAisle(v === '' ? undefined : v)}
              options={[
                { value: '', label: t('allAisles') },
                ...(wall.data?.aisles ?? []).map((a) => ({ value: a, label: a })),
              ]}
              data-testid="wall-aisle"
            />
            {wall.data && (
              <Typography.Text type="secondary" data-testid="wall-unplaced">
                {t('unplaced', { count: wall.data.unplaced })}
              </Typography.Text>
            )}
          </Space>
          {permissions.includes('tag.bind') && (
            <Button icon={<ImportOutlined />} onClick={() => setImporting(true)} data-testid="wall-import">
              {t('import.button')}
            </Button>
          )}
        </Flex>
        <Typography.Paragraph type="secondary" style={{ margin: '8px 0 0' }}>
          {t('intro')}
        </Typography.Paragraph>
      </Card>
      {wall.data?.truncated && <Alert type="warning" showIcon title={t('truncated')} />}
      {wall.data && aisles.length === 0 && <Empty description={t('empty')} />}
      {aisles.map((a) => (
        <Card key={a.aisle} size="small" title={t('aisleTitle', { aisle: a.aisle })} data-testid="wall-aisle-card">
          <Space orientation="vertical" style={{ display: 'flex' }}>
            {a.bays.map((b) => (
              <div key={b.bay}>
                <Typography.Text strong>{t('bayTitle', { bay: b.bay || '–' })}</Typography.Text>
                {b.shelves.map((s) => (
                  <Flex
                    key={s.shelf}
                    align="flex-end"
                    gap={6}
                    wrap
                    data-testid="wall-shelf"
                    style={{ borderBottom: '4px solid #bfbfbf', padding: '6px 0 2px', marginTop: 4 }}
                  >
                    <Typography.Text type="secondary" style={{ width: 64, flex: 'none' }}>
                      {t('shelfTitle', { shelf: s.shelf || '–' })}
                    </Typography.Text>
                    {s.tags.map(tile)}
                  </Flex>
                ))}
              </div>
            ))}
          </Space>
        </Card>
      ))}
      <ImportModal
        open={importing}
        onClose={() => setImporting(false)}
        onDone={() => void queryClient.invalidateQueries({ queryKey: queryKeys.lists('tags', storeId) })}
      />
    </Space>
  );
}

/** A shelf plan pasted as CSV lines (hardware ID, aisle, bay, shelf, position): /mgr/tag/importpositions. */
function ImportModal({ open, onClose, onDone }: { open: boolean; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation('wall');
  const { message } = App.useApp();
  const [text, setText] = useState('');
  const parsed = useMemo(() => parsePositions(text), [text]);
  const save = useMutation({
    mutationFn: () => request('importTagPositions', { rows: parsed.rows }),
    onSuccess: (d) => {
      message.success(t('import.done', { count: d.updated }));
      setText('');
      onDone();
      onClose();
    },
  });
  const readFile = async (file: File | undefined) => {
    if (file) setText(await file.text());
  };
  return (
    <Modal
      open={open}
      title={t('import.title')}
      okText={t('import.ok')}
      cancelText={t('import.cancel')}
      okButtonProps={{ disabled: parsed.rows.length === 0 || parsed.bad.length > 0 }}
      confirmLoading={save.isPending}
      onOk={() => save.mutate()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">{t('import.hint')}</Typography.Paragraph>
      <input
        type="file"
        accept=".csv,.txt,text/csv,text/plain"
        onChange={(e) => void readFile(e.target.files?.[0])}
        data-testid="wall-import-file"
        style={{ marginBottom: 8 }}
      />
      <Input.TextArea
        rows={8}
        value={text}
        onChange={(e) => setText(e.target.value)}
        placeholder="AB000001,A1,2,3,1"
        data-testid="wall-import-text"
        style={{ fontFamily: MONO_FAMILY }}
      />
      <Typography.Text type={parsed.bad.length ? 'danger' : 'secondary'}>
        {parsed.bad.length
          ? t('import.bad', { lines: parsed.bad.slice(0, 10).join(', ') })
          : t('import.rows', { count: parsed.rows.length })}
      </Typography.Text>
    </Modal>
  );
}
