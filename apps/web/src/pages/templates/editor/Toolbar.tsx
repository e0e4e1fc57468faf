import {
  AlignCenterOutlined,
  AlignLeftOutlined,
  AlignRightOutlined,
  ArrowDownOutlined,
  ArrowLeftOutlined,
  ArrowUpOutlined,
  BarcodeOutlined,
  BlockOutlined,
  BorderOutlined,
  ColumnHeightOutlined,
  ColumnWidthOutlined,
  DeleteOutlined,
  ExpandOutlined,
  FontSizeOutlined,
  LineOutlined,
  MoneyCollectOutlined,
  PictureOutlined,
  QrcodeOutlined,
  RedoOutlined,
  SaveOutlined,
  ToTopOutlined,
  UndoOutlined,
  VerticalAlignBottomOutlined,
  VerticalAlignMiddleOutlined,
  VerticalAlignTopOutlined,
  ZoomInOutlined,
  ZoomOutOutlined,
} from '@ant-design/icons';
import type { ElementType } from '@esl/labels';
import { Badge, Button, Divider, Select, Space, Switch, Tooltip } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Alignment, ZOrder } from '../../../editor/commands';
import { stepZoom, ZOOM_STEPS } from '../../../editor/geometry';

export const ELEMENT_ICONS: Record<ElementType, ReactNode> = {
  text: <FontSizeOutlined />,
  price: <MoneyCollectOutlined />,
  barcode: <BarcodeOutlined />,
  qrcode: <QrcodeOutlined />,
  rect: <BorderOutlined />,
  line: <LineOutlined />,
  image: <PictureOutlined />,
};

const ALIGN_ICONS: Record<Alignment, ReactNode> = {
  left: <AlignLeftOutlined />,
  hcenter: <AlignCenterOutlined />,
  right: <AlignRightOutlined />,
  top: <VerticalAlignTopOutlined />,
  vcenter: <VerticalAlignMiddleOutlined />,
  bottom: <VerticalAlignBottomOutlined />,
};

const ORDER_ICONS: Record<ZOrder, ReactNode> = {
  front: <ToTopOutlined />,
  forward: <ArrowUpOutlined />,
  backward: <ArrowDownOutlined />,
  back: <ToTopOutlined rotate={180} />,
};

export const GRID_STEPS = [0, 2, 4, 5, 8, 10, 16, 20] as const;

interface Props {
  selected: number;
  canUndo: boolean;
  canRedo: boolean;
  dirty: boolean;
  saving: boolean;
  canSave: boolean;
  zoom: number;
  grid: number;
  snap: boolean;
  outlines: boolean;
  onAdd: (type: ElementType) => void;
  onUndo: () => void;
  onRedo: () => void;
  onAlign: (how: Alignment) => void;
  onDistribute: (axis: 'x' | 'y') => void;
  onOrder: (where: ZOrder) => void;
  onDuplicate: () => void;
  onDelete: () => void;
  onZoom: (zoom: number) => void;
  onFit: () => void;
  onGrid: (grid: number) => void;
  onSnap: (snap: boolean) => void;
  onOutlines: (on: boolean) => void;
  onSave: () => void;
  onBack: () => void;
}

function Tool({ title, ...rest }: { title: string; icon: ReactNode; onClick: () => void; disabled?: boolean }) {
  return (
    <Tooltip title={title} mouseEnterDelay={0.4}>
      <Button size="small" type="text" aria-label={title} {...rest} />
    </Tooltip>
  );
}

export function Toolbar(p: Props) {
  const { t } = useTranslation('editor');
  const none = p.selected === 0;
  return (
    <div className="tmpl-editor-toolbar" role="toolbar">
      <Tool title={t('back')} icon={<ArrowLeftOutlined />} onClick={p.onBack} />
      <Divider orientation="vertical" />
      <Space size={2} wrap>
        {(Object.keys(ELEMENT_ICONS) as ElementType[]).map((type) => (
          <Tooltip key={type} title={t('addType', { type: t(`type.${type}`) })} mouseEnterDelay={0.4}>
            <Button
              size="small"
              icon={ELEMENT_ICONS[type]}
              onClick={() => p.onAdd(type)}
              data-testid={`add-${type}`}
              disabled={!p.canSave}
            >
              {t(`type.${type}`)}
            </Button>
          </Tooltip>
        ))}
      </Space>
      <Divider orientation="vertical" />
      <Space size={0}>
        <Tool title={t('undo')} icon={<UndoOutlined />} onClick={p.onUndo} disabled={!p.canUndo} />
        <Tool title={t('redo')} icon={<RedoOutlined />} onClick={p.onRedo} disabled={!p.canRedo} />
      </Space>
      <Divider orientation="vertical" />
      <Space size={0}>
        {(Object.keys(ALIGN_ICONS) as Alignment[]).map((how) => (
          <Tool
            key={how}
            title={t(`align.${how}`)}
            icon={ALIGN_ICONS[how]}
            onClick={() => p.onAlign(how)}
            disabled={none}
          />
        ))}
        <Tool
          title={t('distribute.x')}
          icon={<ColumnWidthOutlined />}
          onClick={() => p.onDistribute('x')}
          disabled={p.selected < 3}
        />
        <Tool
          title={t('distribute.y')}
          icon={<ColumnHeightOutlined />}
          onClick={() => p.onDistribute('y')}
          disabled={p.selected < 3}
        />
      </Space>
      <Divider orientation="vertical" />
      <Space size={0}>
        {(Object.keys(ORDER_ICONS) as ZOrder[]).map((where) => (
          <Tool
            key={where}
            title={t(`order.${where}`)}
            icon={ORDER_ICONS[where]}
            onClick={() => p.onOrder(where)}
            disabled={none}
          />
        ))}
        <Tool title={t('duplicate')} icon={<BlockOutlined />} onClick={p.onDuplicate} disabled={none} />
        <Tool title={t('delete')} icon={<DeleteOutlined />} onClick={p.onDelete} disabled={none} />
      </Space>
      <Divider orientation="vertical" />
      <Space size={2}>
        <Tool title={t('zoomOut')} icon={<ZoomOutOutlined />} onClick={() => p.onZoom(stepZoom(p.zoom, -1))} />
        <Select
          aria-label={t('zoom')}
          size="small"
          value={p.zoom}
          style={{ width: 84 }}
          data-testid="zoom"
          options={ZOOM_STEPS.map((z) => ({ value: z, label: `${Math.round(z * 100)}%` }))}
          onChange={p.onZoom}
        />
        <Tool title={t('zoomIn')} icon={<ZoomInOutlined />} onClick={() => p.onZoom(stepZoom(p.zoom, 1))} />
        <Tool title={t('zoomFit')} icon={<ExpandOutlined />} onClick={p.onFit} />
      </Space>
      <Space size={6}>
        <span>{t('grid')}</span>
        <Select
          aria-label={t('grid')}
          size="small"
          value={p.grid}
          style={{ width: 76 }}
          options={GRID_STEPS.map((g) => ({ value: g, label: g === 0 ? t('gridOff') : `${g}px` }))}
          onChange={p.onGrid}
        />
        <Switch size="small" aria-label={t('snap')} checked={p.snap} onChange={p.onSnap} />
        <span>{t('snap')}</span>
        <Switch size="small" aria-label={t('outlines')} checked={p.outlines} onChange={p.onOutlines} />
        <span>{t('outlines')}</span>
      </Space>
      <span style={{ flex: 1 }} />
      <Badge dot={p.dirty} offset={[-2, 2]}>
        <Button
          type="primary"
          icon={<SaveOutlined />}
          loading={p.saving}
          onClick={p.onSave}
          disabled={!p.canSave}
          data-testid="editor-save"
        >
          {t('save')}
        </Button>
      </Badge>
    </div>
  );
}
