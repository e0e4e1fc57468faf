import type { HandlerMap } from '../api/handlers';
import { callbackHandlers } from './callbacks/routes';
import { firmwareHandlers } from './firmware/routes';
import { fontHandlers } from './fonts/routes';
import { logHandlers } from './logs/routes';
import { modelHandlers } from './models/routes';
import { pageScheduleHandlers } from './pages/routes';
import { problemHandlers } from './problems/routes';
import { productHandlers } from './products/routes';
import { promotionHandlers } from './promotions/routes';
import { proofHandlers } from './proof/routes';
import { scheduleHandlers } from './schedule/routes';
import { sessionHandlers } from './session/routes';
import { stationHandlers } from './stations/routes';
import { storeHandlers } from './stores/routes';
import { summaryHandlers } from './summary/routes';
import { tagHandlers } from './tags/routes';
import { templateHandlers } from './templates/routes';
import { tenantHandlers } from './tenants/routes';
import { userHandlers } from './users/routes';

/** Every implemented call. A new area adds its `routes.ts` map here (see docs/SERVER.md). */
export const handlers: HandlerMap = {
  ...sessionHandlers,
  ...userHandlers,
  ...storeHandlers,
  ...logHandlers,
  ...tenantHandlers,
  ...templateHandlers,
  ...fontHandlers,
  ...stationHandlers,
  ...tagHandlers,
  ...pageScheduleHandlers,
  ...modelHandlers,
  ...productHandlers,
  ...scheduleHandlers,
  ...promotionHandlers,
  ...proofHandlers,
  ...problemHandlers,
  ...summaryHandlers,
  ...callbackHandlers,
  ...firmwareHandlers,
};
