import { ApartmentOutlined, ShopOutlined, TeamOutlined, UserOutlined } from '@ant-design/icons';
import { type OpLog, ROLE_LABELS } from '@esl/contract';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Col, Result, Row, Space, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { EmptyState } from '../../components/EmptyState';
import { queryKeys } from '../../platform/queryKeys';
import { requestList } from '../../platform/request';
import { useUserStore } from '../../store/user';
import { sentenceCase, toThousandFilter } from '../../utils/format';
import { parseTime } from '../../utils/time';
import { ProblemsCard } from '../problems/ProblemsCard';
import { ChangePanel, ModelPanel, OverviewPanel, StorePanel } from './panels';

export default function DashboardPage() {
  const { t, i18n } = useTranslation('dashboard');
  const lang = i18n.language === 'en' ? 'en' : 'zh-CN';
  const name = useUserStore((s) => s.name);
  const roles = useUserStore((s) => s.roles);
  const tenant = useUserStore((s) => s.tenant);
  const permissions = useUserStore((s) => s.permissions);
  const curshop = useUserStore((s) => s.curshop);
  const shops = useUserStore((s) => s.shops);
  const can = (p: (typeof permissions)[number]) => permissions.includes(p);

  const storeCount = useQuery({
    queryKey: queryKeys.storeCount(),
    queryFn: () => requestList('storeList', { page: 1, limit: 1 }),
    enabled: can('store.read'),
  });
  const userCount = useQuery({
    queryKey: queryKeys.userCount(),
    queryFn: () => requestList('userList', { page: 1, limit: 1 }),
    enabled: can('user.read'),
  });
  const recent = useQuery({
    queryKey: queryKeys.recentOperations(),
    queryFn: () => requestList('opLog', { page: 1, limit: 8 }),
    enabled: can('log.read'),
  });

  const currentStore = curshop && shops.some((s) => s.id === curshop.id) ? curshop.name : null;

  const figures: { key: string; title: string; icon: ReactNode; value: ReactNode; loading?: boolean }[] = [];
  if (can('store.read')) {
    figures.push({
      key: 'stores',
      title: t('figure.stores'),
      icon: <ShopOutlined />,
      value: storeCount.data ? toThousandFilter(storeCount.data.count) : '—',
      loading: storeCount.isPending,
    });
  }
  if (can('user.read')) {
    figures.push({
      key: 'users',
      title: t('figure.users'),
      icon: <TeamOutlined />,
      value: userCount.data ? toThousandFilter(userCount.data.count) : '—',
      loading: userCount.isPending,
    });
  }
  if (tenant) {
    figures.push({
      key: 'store',
      title: t('figure.currentStore'),
      icon: <ApartmentOutlined />,
      value: currentStore ?? <Typography.Text type="warning">{t('storeNotSet')}</Typography.Text>,
    });
  }
  figures.push({
    key: 'roles',
    title: t('figure.roles'),
    icon: <UserOutlined />,
    value: (
      <Space size={[0, 4]} wrap>
        {roles.map((r) => (
          <Tag key={r} color="blue" style={{ fontSize: 14, lineHeight: '22px' }}>
            {sentenceCase(ROLE_LABELS[r][lang])}
          </Tag>
        ))}
      </Space>
    ),
  });

  const columns: ColumnsType<OpLog> = [
    { title: t('recent.time'), dataIndex: 'time', width: 170, render: (v: number) => parseTime(v) },
    { title: t('recent.user'), dataIndex: 'username', width: 120, ellipsis: true },
    {
      title: t('recent.call'),
      dataIndex: 'operation',
      ellipsis: true,
      render: (v: string, row) => <span title={row.call}>{v}</span>,
    },
    {
      title: t('recent.result'),
      dataIndex: 'code',
      width: 100,
      render: (code: number) =>
        code === 0 ? <Tag color="success">{t('recent.ok')}</Tag> : <Tag color="error">{code}</Tag>,
    },
  ];

  return (
    <Space orientation="vertical" size="middle" style={{ display: 'flex' }}>
      <Card size="small">
        <Typography.Title level={4} style={{ margin: 0 }}>
          {t('welcome', { name })}
        </Typography.Title>
        <Typography.Text type="secondary">{tenant ? tenant.name : t('platform')}</Typography.Text>
      </Card>

      <Row gutter={[16, 16]}>
        {figures.map((f) => (
          <Col key={f.key} xs={24} sm={12} xl={6}>
            <Card size="small" style={{ height: '100%' }} loading={f.loading}>
              <Typography.Text type="secondary">{f.title}</Typography.Text>
              <div
                style={{
                  display: 'flex',
                  alignItems: 'center',
                  gap: 8,
                  marginTop: 8,
                  fontSize: 24,
                  lineHeight: '32px',
                }}
              >
                {f.icon}
                <span style={{ minWidth: 0, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
                  {f.value}
                </span>
              </div>
            </Card>
          </Col>
        ))}
      </Row>

      {can('platform.tenants') && (
        <Result
          status="info"
          title={t('platformTitle')}
          subTitle={t('platformHint')}
          extra={
            <Link to="/saadmin/sa/adm">
              <Button type="primary">{t('platformGo')}</Button>
            </Link>
          }
        />
      )}

      {can('tag.read') && curshop && currentStore && <ProblemsCard storeId={curshop.id} />}

      {can('dashboard.read') && (
        <Row gutter={[16, 16]}>
          <Col xs={24}>
            <OverviewPanel />
          </Col>
          <Col xs={24} xl={12}>
            <ModelPanel />
          </Col>
          <Col xs={24} xl={12}>
            <StorePanel />
          </Col>
          <Col xs={24}>
            <ChangePanel />
          </Col>
        </Row>
      )}

      {can('log.read') && (
        <Card
          size="small"
          title={t('recent.title')}
          extra={
            <Link to="/logmgr/op">
              <Button type="link" size="small">
                {t('recent.more')}
              </Button>
            </Link>
          }
        >
          <Table<OpLog>
            rowKey="id"
            size="small"
            columns={columns}
            dataSource={recent.data?.rows ?? []}
            loading={recent.isFetching}
            pagination={false}
            scroll={{ x: 600 }}
            locale={{ emptyText: <EmptyState title={t('recent.empty')} hint={t('recent.emptyHint')} /> }}
          />
        </Card>
      )}
    </Space>
  );
}
