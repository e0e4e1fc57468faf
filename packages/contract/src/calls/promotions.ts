import {
  AddPromotionBody,
  AddPromotionData,
  CancelPromotionBody,
  CancelPromotionData,
  EditPromotionBody,
  Promotion,
  PromotionListBody,
} from '../api/promotions';
import type { Messages } from '../errors';
import { call, change, list } from './define';

/** Promotions of the current store (docs/PROMOTIONS.md); with none set: STORE_NOT_SET. */
export const PROMOTION_CALLS = {
  promotionList: call(
    '/mgr/promo/list',
    'product.read',
    PromotionListBody,
    Promotion,
    'List the promotions of the current store (started first, then upcoming soonest first, then the rest)',
    list,
  ),
  addPromotion: call(
    '/mgr/promo/add',
    'product.write',
    AddPromotionBody,
    AddPromotionData,
    'Add a promotion (promotional price and text, products by barcode or by a field value, start and end on ' +
      "the store's clock; chain: in every visible store); labels switch at its start and end on their own",
    change,
  ),
  editPromotion: call(
    '/mgr/promo/edit',
    'product.write',
    EditPromotionBody,
    Promotion,
    'Change a promotion that has not ended',
    change,
  ),
  cancelPromotion: call(
    '/mgr/promo/cancel',
    'product.write',
    CancelPromotionBody,
    CancelPromotionData,
    'Cancel promotions that have not ended (all or nothing); their tags show the regular label',
    change,
  ),
} as const;

export const PROMOTION_CALL_NAMES = {
  promotionList: { 'zh-CN': '查询促销', en: 'List promotions' },
  addPromotion: { 'zh-CN': '添加促销', en: 'Add a promotion' },
  editPromotion: { 'zh-CN': '修改促销', en: 'Edit a promotion' },
  cancelPromotion: { 'zh-CN': '取消促销', en: 'Cancel promotions' },
} as const satisfies Record<keyof typeof PROMOTION_CALLS, Messages>;
