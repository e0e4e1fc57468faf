import type { ModalFuncProps } from 'antd';
import { Modal as StaticModal, message as staticMessage } from 'antd';
import type { MessageInstance } from 'antd/es/message/interface';

/**
 * The message and modal APIs of antd's <App>, captured once the shell mounts so code outside
 * React (the request client, the guard) shows them with the current theme and locale.
 * Before that, antd's static functions stand in.
 */
export interface Feedback {
  message: MessageInstance;
  confirm: (props: ModalFuncProps) => unknown;
}

let current: Feedback = { message: staticMessage, confirm: (props) => StaticModal.confirm(props) };

export function setFeedback(next: Feedback): void {
  current = next;
}

export function feedback(): Feedback {
  return current;
}
