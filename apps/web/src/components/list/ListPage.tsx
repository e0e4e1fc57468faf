import { Card, Flex, Form, Grid, Space, Table, type TableProps, Typography } from 'antd';
import type { ColumnType } from 'antd/es/table';
import { type Key, type ReactNode, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../EmptyState';
import { ActionButton, allowed, type ListAction } from './ActionButton';
import { FilterActions } from './FilterActions';
import { type FilterField, filterInput } from './filters';
import { useKeyboardScroll } from './keyboardScroll';
import { sortOrderOf, tableSort } from './state';
import { pinnedWhileTheyFit, SELECTION_WIDTH, tableWidth, VIRTUAL_FROM, VIRTUAL_HEIGHT } from './table';
import type { ListView } from './useListQuery';

/** A column of a list screen: antd's, plus `sort`, the key the server sorts by when it is clicked. */
export type ListColumn<Row, S extends string = never> = ColumnType<Row> & { sort?: S };

type Maybe<T> = T | false | undefined;

export interface ListPageProps<Row extends { id: number }, S extends string, V> {
  list: ListView<Row, S, V>;
  /**
   * The screen's i18n namespace; it says `total` ("{{count}} stores"), `loadFailed`, and for an
   * empty list `empty` (what is missing) and `emptyHint` (what would appear and how to get it).
   */
  ns: string;
  /** What would appear in the empty list and how: the namespace's `emptyHint` unless given. */
  emptyHint?: ReactNode;
  /** The table card's title: the namespace's `title` unless given. */
  title?: ReactNode;
  /** The filter form's name: its inputs' ids are `<formName>_<field>`. */
  formName: string;
  filters: readonly Maybe<FilterField>[];
  columns: readonly Maybe<ListColumn<Row, S>>[];
  /** What each row offers, in a column at the right; left out when the role may do nothing. */
  actions?: { width: number; items: (row: Row) => readonly Maybe<ListAction>[] };
  /** Buttons above the table, at the right of the title. */
  toolbar?: readonly Maybe<ListAction>[];
  /**
   * What can be done to the selected rows (`list.selected`). With it, rows can be selected, and
   * a bar over the table counts them and offers these.
   */
  bulk?: Maybe<readonly Maybe<ListAction>[]>;
  /** Page sizes offered (antd's 10, 20, 50, 100 when left out). */
  pageSizes?: number[];
  /**
   * Scroll width of the table. Left out, it is the sum of the column widths, and a page of more
   * than VIRTUAL_FROM rows renders only the rows in view (which needs that exact width).
   */
  scrollX?: number;
  expandable?: TableProps<Row>['expandable'];
  /**
   * What a row says on a phone (below antd's `sm`, 576 px): one column holding it, with the row's
   * actions under it, instead of columns that scroll sideways out of view.
   */
  phone?: (row: Row) => ReactNode;
  testId?: string;
  /** The screen's dialogs. */
  children?: ReactNode;
}

/**
 * A list screen (ant-design-pro's ProTable in our typed form): a filter card whose Search always
 * asks again and whose Reset clears and asks again, then a card with the title, the toolbar, the
 * selection bar and the table with its pager. The state is the `useListQuery` passed in.
 */
export function ListPage<Row extends { id: number }, S extends string, V>(props: ListPageProps<Row, S, V>) {
  const { list, ns, actions } = props;
  const { t } = useTranslation(ns);
  const common = useTranslation('common').t;
  const [form] = Form.useForm<V>();
  const bulk = props.bulk ? allowed(props.bulk) : null;
  const toolbar = allowed(props.toolbar ?? []);
  const tableBox = useRef<HTMLDivElement>(null);
  const actionsWidth = useFittedActions(tableBox, actions?.width ?? 0);
  const boxWidth = useWidth(tableBox);
  const title = props.title ?? t('title');
  useKeyboardScroll(tableBox, typeof title === 'string' ? title : '');

  const declared: ColumnType<Row>[] = props.columns
    .filter((c): c is ListColumn<Row, S> => Boolean(c))
    .map(({ sort, ...column }) =>
      sort === undefined
        ? column
        : {
            ...column,
            key: sort,
            sorter: true,
            sortOrder: sortOrderOf(list.sort, sort),
          },
    );
  if (actions) {
    declared.push({
      title: common('list.actions'),
      key: 'actions',
      width: actionsWidth,
      fixed: 'right',
      render: (_, row) => (
        <Space size={0} data-row-actions>
          {allowed(actions.items(row)).map((a) => (
            <ActionButton key={a.key} action={a} place="row" />
          ))}
        </Space>
      ),
    });
  }

  const onChange: TableProps<Row>['onChange'] = (pagination, _filters, sorter, extra) => {
    if (extra.action === 'sort') {
      const one = Array.isArray(sorter) ? sorter[0] : sorter;
      list.setSort(
        tableSort(
          props.columns.map((c) => (c ? c.sort : undefined)),
          one?.columnKey,
          one?.order,
        ),
      );
    } else if (extra.action === 'paginate') {
      list.setPaging({ page: pagination.current ?? 1, limit: pagination.pageSize ?? list.paging.limit });
    }
  };

  const selectable = bulk !== null;
  const phone = Grid.useBreakpoint().sm === false ? props.phone : undefined;
  const columns = phone
    ? [phoneColumn(phone, actions?.items)]
    : pinnedWhileTheyFit(declared, boxWidth, selectable ? SELECTION_WIDTH : 0);
  const width = props.scrollX ?? tableWidth(columns, selectable ? SELECTION_WIDTH : 0);
  const virtual = props.scrollX === undefined && list.rows.length > VIRTUAL_FROM;
  const count = list.selected.length;

  return (
    <Space orientation="vertical" size="middle" style={{ display: 'flex' }}>
      <Card size="small">
        <Form form={form} name={props.formName} layout="inline" onFinish={list.search} style={{ rowGap: 8 }}>
          {props.filters.map(
            (f) =>
              f && (
                <Form.Item
                  key={f.name}
                  name={f.name}
                  label={f.label || undefined}
                  valuePropName={f.kind === 'check' ? 'checked' : undefined}
                >
                  {filterInput(f)}
                </Form.Item>
              ),
          )}
          <FilterActions
            onReset={() => {
              form.resetFields();
              list.search({});
            }}
          />
        </Form>
      </Card>
      <Card
        size="small"
        title={title}
        extra={
          toolbar.length > 0 && (
            <Space wrap>
              {toolbar.map((a) => (
                <ActionButton key={a.key} action={a} place="toolbar" />
              ))}
            </Space>
          )
        }
      >
        {bulk && count > 0 && (
          <Flex align="center" gap={8} wrap style={{ marginBottom: 12 }} data-testid="selection-bar">
            <Typography.Text>{common('list.selected', { count })}</Typography.Text>
            {bulk.map((a) => (
              <ActionButton key={a.key} action={a} place="selection" />
            ))}
            <ActionButton
              action={{ key: 'clear', label: common('list.clearSelection'), onClick: () => list.setSelected([]) }}
              place="row"
            />
          </Flex>
        )}
        <div ref={tableBox}>
          <Table<Row>
            data-testid={props.testId}
            rowKey="id"
            size="middle"
            columns={columns}
            showHeader={!phone || selectable}
            dataSource={list.rows}
            loading={list.loading}
            virtual={virtual}
            scroll={virtual ? { x: width, y: VIRTUAL_HEIGHT } : { x: width }}
            rowSelection={
              selectable
                ? {
                    selectedRowKeys: list.selected,
                    preserveSelectedRowKeys: true,
                    columnWidth: SELECTION_WIDTH,
                    onChange: (keys: Key[]) => list.setSelected(keys.map(Number)),
                  }
                : undefined
            }
            expandable={props.expandable}
            onChange={onChange}
            locale={{
              emptyText: list.failed ? (
                <EmptyState title={t('loadFailed')} testId="list-failed" />
              ) : (
                <EmptyState
                  title={t('empty')}
                  hint={list.filtered ? common('list.noMatch') : (props.emptyHint ?? t('emptyHint'))}
                />
              ),
            }}
            pagination={{
              current: list.paging.page,
              pageSize: list.paging.limit,
              total: list.count,
              showSizeChanger: true,
              pageSizeOptions: props.pageSizes,
              showTotal: (total) => t('total', { count: total }),
            }}
          />
        </div>
      </Card>
      {props.children}
    </Space>
  );
}

/** A phone's one column: what the row says, then its actions (wrapping when they do not fit). */
function phoneColumn<Row>(
  card: (row: Row) => ReactNode,
  items: ((row: Row) => readonly Maybe<ListAction>[]) | undefined,
): ColumnType<Row> {
  return {
    key: 'phone',
    width: PHONE_COLUMN_WIDTH,
    render: (_, row) => {
      const buttons = items ? allowed(items(row)) : [];
      return (
        <Flex vertical gap={4}>
          {card(row)}
          {buttons.length > 0 && (
            <Flex wrap style={{ marginInlineStart: -8 }}>
              {buttons.map((a) => (
                <ActionButton key={a.key} action={a} place="row" />
              ))}
            </Flex>
          )}
        </Flex>
      );
    },
  };
}

/** The phone column's width: a 360 px screen's list card, less its padding. */
const PHONE_COLUMN_WIDTH = 280;

/**
 * The actions column's width: the page's figure, or wider when a row's buttons need more in the
 * language shown (English labels are longer than the Chinese ones a page's width was set for).
 * Measured after each render from the buttons themselves; it only grows, so it settles at once.
 */
function useFittedActions(box: { current: HTMLElement | null }, given: number): number {
  const [fitted, setFitted] = useState(0);
  useLayoutEffect(() => {
    const root = box.current;
    if (!root || given === 0) return;
    let need = 0;
    for (const buttons of root.querySelectorAll<HTMLElement>('[data-row-actions]')) {
      const cell = buttons.closest('td');
      if (!cell) continue;
      const style = getComputedStyle(cell);
      const padding = Number.parseFloat(style.paddingLeft) + Number.parseFloat(style.paddingRight);
      need = Math.max(need, Math.ceil(buttons.scrollWidth + padding + 2));
    }
    if (need > Math.max(given, fitted)) setFitted(need);
  });
  return Math.max(given, fitted);
}

/** The element's width, kept current as the window or the layout changes it (0 until measured). */
function useWidth(box: { current: HTMLElement | null }): number {
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const observer = new ResizeObserver(() => setWidth(el.clientWidth));
    observer.observe(el);
    return () => observer.disconnect();
  }, [box]);
  return width;
}
