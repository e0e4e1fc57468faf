import type { Tag } from '@esl/contract';
import { Descriptions, Drawer, Flex, Tag as Mark, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatTime } from '../../utils/time';
import { Battery, Signal, StatusTag } from './display';
import { ScreenImage } from './Screen';

/** A tag's detail: both screens large, and where it stands (status, station, signal, battery, last seen). */
export function TagDetail({ storeId, tag, onClose }: { storeId: number; tag: Tag | undefined; onClose: () => void }) {
  const { t, i18n } = useTranslation('tags');
  const lang = i18n.language === 'en' ? 'en' : 'zh-CN';
  return (
    <Drawer
      open={tag !== undefined}
      onClose={onClose}
      size={560}
      title={tag ? t('detail.title', { id: tag.hardwareId }) : ''}
      destroyOnHidden
    >
      {tag && (
        <Flex vertical gap={16} data-testid="tag-detail-body">
          <Flex vertical gap={4}>
            <Typography.Text strong>{t('screen.shown')}</Typography.Text>
            <ScreenImage storeId={storeId} tag={tag} which="shown" height={180} maxWidth={500} />
          </Flex>
          <Flex vertical gap={4}>
            <Flex gap={8} align="center">
              <Typography.Text strong>{t('screen.desired')}</Typography.Text>
              {tag.pending ? (
                <Mark color="processing">{t('screen.pending')}</Mark>
              ) : (
                <Typography.Text type="secondary">{t('screen.upToDate')}</Typography.Text>
              )}
            </Flex>
            <ScreenImage storeId={storeId} tag={tag} which="desired" height={180} maxWidth={500} />
          </Flex>
          <Descriptions column={1} size="small" bordered>
            <Descriptions.Item label={t('col.status')}>
              <StatusTag status={tag.status} />
            </Descriptions.Item>
            <Descriptions.Item label={t('col.product')}>
              {tag.product ? `${tag.product.name} · ${tag.product.price}` : t('unbound')}
            </Descriptions.Item>
            <Descriptions.Item label={t('col.template')}>{tag.label.templateName || '—'}</Descriptions.Item>
            <Descriptions.Item label={t('col.station')}>
              {tag.stationSn ? <Typography.Text code>{tag.stationSn}</Typography.Text> : '—'}
            </Descriptions.Item>
            <Descriptions.Item label={t('col.signal')}>
              <Signal dbm={tag.signal} />
            </Descriptions.Item>
            <Descriptions.Item label={t('col.battery')}>
              <Battery percent={tag.battery} />
            </Descriptions.Item>
            <Descriptions.Item label={t('col.lastSeen')}>
              {tag.lastSeen === null ? t('never') : formatTime(tag.lastSeen, '{y}-{m}-{d} {h}:{i}:{s}', lang)}
            </Descriptions.Item>
          </Descriptions>
        </Flex>
      )}
    </Drawer>
  );
}
