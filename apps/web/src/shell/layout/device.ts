import { MOBILE_BREAKPOINT_PX } from '@esl/contract';
import type { Device } from '../../store/app';

/** Below 992 px of window width the layout is in mobile mode (SPEC.md §2); 992 px is desktop. */
export function deviceFor(windowWidth: number): Device {
  return windowWidth < MOBILE_BREAKPOINT_PX ? 'mobile' : 'desktop';
}
