import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import type { BodyOf, CallName, DataOf } from '@esl/contract';
import { useMutation } from '@tanstack/react-query';
import { App } from 'antd';
import type { TFunction } from 'i18next';
import { request } from '../../platform/request';
import type { ListAction } from './ActionButton';

/**
 * The actions every list screen words alike, in its own namespace: `t('edit')`, `t('add')`,
 * `t('delete')` and the question `t('deleteTitle')` with the page's description.
 */
export function editAction(t: TFunction, onClick: () => void): ListAction {
  return { key: 'edit', label: t('edit'), icon: <EditOutlined />, onClick };
}

export function addAction(t: TFunction, onClick: () => void, testId?: string): ListAction {
  return { key: 'add', label: t('add'), icon: <PlusOutlined />, primary: true, testId, onClick };
}

/** Delete a row or the selection, after the question; `iconOnly` for a narrow actions column. */
export function deleteAction(
  t: TFunction,
  description: string,
  onClick: () => unknown,
  iconOnly?: boolean,
): ListAction {
  return {
    key: 'delete',
    label: t('delete'),
    icon: <DeleteOutlined />,
    danger: true,
    iconOnly,
    confirm: { title: t('deleteTitle'), description },
    onClick,
  };
}

/** The calls that act on rows by their ids (delete, unbind). */
type IdsCall = { [N in CallName]: BodyOf<N> extends { ids: unknown[] } ? N : never }[CallName];

/**
 * A call on some rows of a list (delete, unbind): when it succeeds, says `done(answer)` and
 * refreshes the list, dropping the rows it removed (`removes`) from the selection.
 */
export function useRowsCall<N extends IdsCall>(
  call: N,
  list: { changed: (gone?: readonly number[]) => void },
  done: (answer: DataOf<N>) => string,
  removes = true,
) {
  const { message } = App.useApp();
  return useMutation({
    // `{ ids }` is the body of every IdsCall; TypeScript cannot see that through the generic name.
    mutationFn: (ids: number[]) => request(call, { ids } as BodyOf<N>),
    onSuccess: (answer, ids) => {
      message.success(done(answer));
      list.changed(removes ? ids : []);
    },
  });
}
